// Writes l10n/bundle.l10n.json, the English messages translators work from: every message src/ and webview/
// pass to vscode.l10n.t or the pure layers' t, each mapped to itself (what `@vscode/l10n-dev export` writes).
// The unit test (test/unit/l10n.test.ts) fails while the file is behind the sources. Run after changing words:
//   npm run l10n:export   (node --import tsx scripts/l10n-export.mjs)
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BUNDLE_PATH, englishBundle } from '../test/unit/support/l10nBundle.ts';

const root = join(import.meta.dirname, '..');
const { text, unlisted } = englishBundle(root);
if (unlisted.length > 0) {
  for (const finding of unlisted) console.error(`${finding.file}:${finding.line} ${finding.rule}: ${finding.text}`);
  process.exit(1);
}
mkdirSync(dirname(join(root, BUNDLE_PATH)), { recursive: true });
writeFileSync(join(root, BUNDLE_PATH), text);
console.log(`${BUNDLE_PATH}: ${Object.keys(JSON.parse(text)).length} messages`);
