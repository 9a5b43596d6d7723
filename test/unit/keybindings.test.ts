// Subchats' keybindings take no key VS Code binds by default, on any OS, desktop or web, whatever the
// `when` clause (issue 22: Ctrl+Alt+N was New Untitled Text File in VS Code for the Web). The defaults
// are recorded in test/fixtures/vscode-keybindings (see its README); test/exthost/keybindings.test.ts
// checks the running VS Code's own list.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { collisions, keyOn, type Keybinding, type Platform } from './support/keyChords';
import { manifest } from './support/manifest';

const root = join(import.meta.dirname, '../..');
const fixtureDir = join(root, 'test/fixtures/vscode-keybindings');
const platforms: Platform[] = ['linux', 'mac', 'windows'];

function contributedKeybindings(): Keybinding[] {
  return manifest<{ contributes: { keybindings: Keybinding[] } }>().contributes.keybindings;
}

/** The recorded files of `platform`, by name. */
function recordings(platform: Platform): Map<string, string[]> {
  const files = readdirSync(fixtureDir).filter((name) => name.endsWith(`-${platform}.txt`));
  return new Map(files.map((name) => [name, readFileSync(join(fixtureDir, name), 'utf8').split('\n').filter((line) => line && !line.startsWith('#'))]));
}

/** Every default key of `platform` over all recorded VS Code builds, desktop and web. */
function defaultKeys(platform: Platform): Set<string> {
  return new Set([...recordings(platform).values()].flat());
}

describe('keybindings against VS Code\'s default keybindings', () => {
  for (const platform of platforms) {
    test(`on ${platform}, no Subchats key is (the start of) a default key`, () => {
      const defaults = defaultKeys(platform);
      const taken = contributedKeybindings()
        .map((binding) => ({ command: binding.command, key: keyOn(binding, platform) }))
        .map(({ command, key }) => ({ command, key, defaults: collisions(key, defaults) }))
        .filter((found) => found.defaults.length > 0);
      assert.deepEqual(taken, [], `Subchats keys that VS Code binds on ${platform}`);
    });
  }

  test('the recordings cover desktop and web on each OS', () => {
    for (const platform of platforms) {
      const names = [...recordings(platform)].map(([name, keys]) => {
        assert.ok(keys.length > 300, `${name} lists VS Code's ${keys.length} default keys only`);
        return name.split('-')[0];
      });
      assert.deepEqual([...new Set(names)].sort(), ['desktop', 'web'], platform);
    }
  });

  test('finds the collisions issue 22 reported, however VS Code writes the key', () => {
    assert.ok(collisions('ctrl+alt+n', defaultKeys('linux')).includes('ctrl+alt+n'), 'New Untitled Text File in the browser');
    assert.deepEqual(collisions('ctrl+alt+n', recordings('linux').get('desktop-1.100.3-linux.txt') ?? []), [], 'not on desktop Linux');
    assert.deepEqual(collisions('cmd+alt+c', defaultKeys('mac')), ['alt+cmd+c'], 'Copy Path on macOS, modifiers in another order');
    assert.deepEqual(collisions('ctrl+alt+c', defaultKeys('windows')), ['ctrl+alt+c']);
    assert.ok(collisions('ctrl+k', defaultKeys('linux')).includes('ctrl+k ctrl+c'), 'a chord that starts a default sequence');
    assert.deepEqual(collisions('meta+alt+j', ['win+alt+j', 'alt+shift+win+j']), ['win+alt+j'], 'Win and Meta are one key');
  });
});
