// The English bundle translators work from (l10n/bundle.l10n.json): every message src/ and webview/ pass to
// vscode.l10n.t or the pure layers' t, each mapped to itself, as `@vscode/l10n-dev export` writes it. Built by
// scripts/l10n-export.mjs; test/unit/l10n.test.ts fails when the file is behind the sources.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { translatedMessages, type Finding } from './unlocalisedText';

export const BUNDLE_PATH = 'l10n/bundle.l10n.json';

/** The TypeScript files under `dir` (relative to `root`), in a stable order. */
export function sourceFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) => {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return sourceFiles(root, path);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
    });
}

/** The bundle's text for the sources under `root`, and the translations it cannot list (a message that is not a literal). */
export function englishBundle(root: string): { readonly text: string; readonly unlisted: Finding[] } {
  const bundle: Record<string, string> = {};
  const unlisted: Finding[] = [];
  for (const file of [...sourceFiles(root, 'src'), ...sourceFiles(root, 'webview')]) {
    const found = translatedMessages(file, readFileSync(join(root, file), 'utf8'));
    unlisted.push(...found.unlisted);
    for (const message of found.messages) bundle[message] = message;
  }
  const sorted = Object.fromEntries(Object.keys(bundle).sort().map((key) => [key, key]));
  return { text: `${JSON.stringify(sorted, null, 2)}\n`, unlisted };
}
