// Mocha entry point that VS Code's extension host calls (extensionTestsPath): runs every
// *.test.js bundled next to this file. The runner (scripts/run-exthost-tests.mjs) reports the outcome.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as mochaModule from 'mocha';

type MochaConstructor = typeof mochaModule.default;

// mocha 12 is an ES module; Node >= 20.19 lets this CommonJS bundle require() it, which yields its namespace.
const Mocha: MochaConstructor = (mochaModule as unknown as { default?: MochaConstructor }).default
  ?? (mochaModule as unknown as MochaConstructor);

export async function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    reporter: 'spec',
    color: false,
    timeout: 20_000,
    ...(process.env.SUBCHATS_EXTHOST_GREP ? { grep: process.env.SUBCHATS_EXTHOST_GREP } : {}),
  });
  for (const file of findTestFiles(__dirname)) mocha.addFile(file);
  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  if (failures > 0) throw new Error(`${failures} extension host test(s) failed`);
}

function findTestFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return findTestFiles(path);
      return entry.name.endsWith('.test.js') ? [path] : [];
    })
    .sort();
}
