// Records VS Code's default key chords per OS into test/fixtures/vscode-keybindings/, which
// test/unit/keybindings.test.ts checks Subchats' keybindings against (see that folder's README).
//   node --import tsx scripts/record-default-keybindings.mjs
//     VS Code for the Web (the pinned code-server) on Linux, macOS and Windows: the workbench takes its OS
//     from the browser's user agent, and an extension test module reads its default keybindings document.
//   node --import tsx scripts/record-default-keybindings.mjs --desktop FILE...
//     desktop VS Code: FILE is the "Preferences: Open Default Keyboard Shortcuts (JSON)" text of one OS.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { documentKeys } from '../test/unit/support/keyChords.ts';
import { codeServerDir, repoRoot } from './code-server/codeServer.mjs';
import { runExtensionTests } from './code-server/runExtensionTests.mjs';

const fixtureDir = join(repoRoot, 'test/fixtures/vscode-keybindings');

/** Browser user agents as Chromium sends them on each OS (VS Code only looks for Macintosh, Windows, Linux). */
const WEB_PLATFORMS = {
  linux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
};

/** The OS names desktop VS Code writes in the document's first line. */
const OS_NAMES = { linux: 'Linux', mac: 'macOS', windows: 'Windows' };

const { values, positionals } = parseArgs({ allowPositionals: true, options: { desktop: { type: 'boolean', default: false } } });

if (values.desktop) {
  for (const file of positionals) {
    const text = readFileSync(file, 'utf8');
    const [, version, os] = /^\/\/ Default Keybindings of Visual Studio Code (\S+) for (\w+)/.exec(text) ?? [];
    const platform = Object.keys(OS_NAMES).find((name) => OS_NAMES[name] === os);
    if (!platform) throw new Error(`${file} does not start like VS Code's default keybindings document`);
    write(`desktop-${version}-${platform}.txt`, `desktop VS Code ${version} on ${os}`, text);
  }
} else {
  const { version } = JSON.parse(readFileSync(join(codeServerDir, 'node_modules/code-server/lib/vscode/product.json'), 'utf8'));
  for (const [platform, userAgent] of Object.entries(WEB_PLATFORMS)) {
    write(`web-${version}-${platform}.txt`, `VS Code for the Web ${version} (code-server) on ${OS_NAMES[platform]}`, await webDocument(userAgent));
  }
}

/** The default keybindings document of the workbench in a browser that says it runs on `userAgent`'s OS. */
async function webDocument(userAgent) {
  const dir = mkdtempSync(join(tmpdir(), 'keybindings-'));
  try {
    // An empty development extension, so that the extension host runs the test module (and no Subchats keys show).
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'record-keybindings', publisher: 'subchats', version: '0.0.0', engines: { vscode: '*' } }));
    const out = join(dir, 'keybindings.jsonc');
    writeFileSync(join(dir, 'record.js'), `
      const vscode = require('vscode');
      exports.run = async () => {
        const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse('vscode://defaultsettings/keybindings.json'));
        require('node:fs').writeFileSync(${JSON.stringify(out)}, doc.getText());
      };`);
    const code = await runExtensionTests({ extensionDevelopmentPath: dir, extensionTestsPath: join(dir, 'record.js'), userAgent, write: () => {} });
    if (code !== 0) throw new Error(`reading the default keybindings failed (exit code ${code})`);
    return readFileSync(out, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The document's keys, one per line, sorted, under a line that says where they are from. */
function write(name, origin, documentText) {
  const keys = [...new Set(documentKeys(documentText))].sort();
  writeFileSync(join(fixtureDir, name), `# Default keybindings of ${origin}, recorded by scripts/record-default-keybindings.mjs\n${keys.join('\n')}\n`);
  console.log(`${name}: ${keys.length} key chords`);
}
