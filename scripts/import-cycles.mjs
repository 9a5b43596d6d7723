#!/usr/bin/env node
// Lists import cycles among the project's own modules (src/, webview/) and exits 1 when there is one, so CI
// holds the graph acyclic. Every import form counts: static, type-only, re-exports, `import()` and `require()`,
// because a type-only circle still ties two files' jobs together. A module importing itself is allowed (natural
// recursion), and so is a pair listed in NATURAL_RECURSION with its reason; nothing else is.
//
//   node scripts/import-cycles.mjs            print the cycles (one strongly connected group per line), exit 1 if any
//   node scripts/import-cycles.mjs --edges    print every folder → folder arrow with its count (the layer picture)
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// Mutual recursion that is the shape of the thing itself, not a tangle of jobs.
const NATURAL_RECURSION = [
  // A transcript draws its subagents' cards, and an expanded card draws that subagent's transcript.
  ['webview/components/subchats-child-card.ts', 'webview/components/subchats-transcript.ts'],
];

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROOTS = ['src', 'webview'];

function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** A relative specifier to the .ts file it names, or undefined for packages and files outside the project. */
function resolveSpecifier(from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier).replace(/\.(m?js)$/, '');
  for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) if (existsSync(candidate)) return candidate;
  return undefined;
}

function importsOf(file) {
  // preProcessFile reads static imports, re-exports, `import()` and `require()` alike.
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const targets = new Set();
  for (const ref of info.importedFiles) {
    const target = resolveSpecifier(file, ref.fileName);
    if (target && target !== file) targets.add(target);
  }
  return [...targets];
}

const files = ROOTS.flatMap((dir) => sourceFiles(join(root, dir)));
const graph = new Map(files.map((file) => [file, importsOf(file)]));
const rel = (file) => relative(root, file);

if (process.argv.includes('--edges')) {
  const folderOf = (file) => rel(dirname(file));
  const counts = new Map();
  for (const [from, targets] of graph) for (const to of targets) {
    const key = `${folderOf(from)} → ${folderOf(to)}`;
    if (folderOf(from) !== folderOf(to)) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  for (const [edge, count] of [...counts].sort()) console.log(`${edge}  (${count})`);
  process.exit(0);
}

// Tarjan's strongly connected components; any component of more than one file is a cycle.
let index = 0;
const indexOf = new Map();
const lowOf = new Map();
const stack = [];
const onStack = new Set();
const groups = [];
function visit(file) {
  indexOf.set(file, index);
  lowOf.set(file, index);
  index += 1;
  stack.push(file);
  onStack.add(file);
  for (const next of graph.get(file) ?? []) {
    if (!indexOf.has(next)) {
      visit(next);
      lowOf.set(file, Math.min(lowOf.get(file), lowOf.get(next)));
    } else if (onStack.has(next)) {
      lowOf.set(file, Math.min(lowOf.get(file), indexOf.get(next)));
    }
  }
  if (lowOf.get(file) === indexOf.get(file)) {
    const group = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    const names = group.map(rel).sort();
    const natural = NATURAL_RECURSION.some((pair) => pair.length === names.length && pair.every((name) => names.includes(name)));
    if (group.length > 1 && !natural) groups.push(names);
  }
}
for (const file of files) if (!indexOf.has(file)) visit(file);

if (groups.length === 0) {
  console.log(`import-cycles: no cycles among ${files.length} modules`);
} else {
  console.log(`import-cycles: ${groups.length} cycle group(s) among ${files.length} modules:`);
  for (const group of groups) console.log(`  ${group.join(' ↔ ')}`);
  process.exit(1);
}
