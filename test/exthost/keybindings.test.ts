// Subchats' keybindings against the running VS Code's own default keybindings (its "Open Default Keyboard
// Shortcuts (JSON)" document, built-in extensions included): no Subchats key may be one VS Code binds,
// whatever the `when` clause. Here that is VS Code for the Web on Linux; test/unit/keybindings.test.ts
// checks the recorded defaults of every OS, desktop and web.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { collisions, documentKeys, keyOn, type Keybinding, type Platform } from '../unit/support/keyChords';
import { extension } from './support/subchats';

const OWN = (command: string) => command.startsWith('subchats.');

/** The OS whose keys VS Code uses here (the extension host runs next to the workbench in these tests). */
function platform(): Platform {
  return process.platform === 'darwin' ? 'mac' : process.platform === 'win32' ? 'windows' : 'linux';
}

async function defaultKeybindingsDocument(): Promise<string> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.parse('vscode://defaultsettings/keybindings.json'));
  return document.getText();
}

describe('keybindings against this VS Code\'s defaults', () => {
  const contributed = () => (extension().packageJSON as { contributes: { keybindings: Keybinding[] } }).contributes.keybindings;

  it('no Subchats key is (the start of) a key VS Code binds by default', async () => {
    const defaults = documentKeys(await defaultKeybindingsDocument(), OWN);
    assert.ok(defaults.length > 300, `the document lists ${defaults.length} default keys only`);
    const taken = contributed()
      .map((binding) => ({ command: binding.command, key: keyOn(binding, platform()) }))
      .map(({ command, key }) => ({ command, key, defaults: collisions(key, defaults) }))
      .filter((found) => found.defaults.length > 0);
    assert.deepEqual(taken, [], `Subchats keys that VS Code ${vscode.version} binds on ${platform()}`);
  });

  it('the document lists each Subchats keybinding with the key package.json gives it here', async () => {
    const text = await defaultKeybindingsDocument();
    const own = documentKeys(text, (command) => !OWN(command));
    for (const binding of contributed()) {
      const key = keyOn(binding, platform());
      assert.deepEqual(collisions(key, own).length, 1, `${binding.command} (${key}) among ${own.join(', ')}`);
    }
  });
});
