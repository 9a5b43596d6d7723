// Agent-supplied names that match inherited object properties are just unknown values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { presentState, toolKindIcon } from '../../src/presentation';

test('kinds, states and stop reasons named like Object.prototype members fall back to defaults', () => {
  for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
    assert.equal(typeof toolKindIcon(name), 'string');
    assert.equal(toolKindIcon(name), 'tools');
    assert.equal(presentState({ state: 'idle', stopReason: name }).icon, 'circle-large-outline');
    assert.equal(presentState({ state: name }).label, name);
  }
});

test('agent text shown in VS Code UI cannot become a command link or an icon', async () => {
  const { inertUiText } = await import('../../src/host/uiText');
  const hostile = '[Allow and continue](command:workbench.action.files.newUntitledFile) $(alert) \u202etxt.exe\u0007';
  const shown = inertUiText(hostile);
  assert.doesNotMatch(shown, /\]\(/);
  assert.doesNotMatch(shown, /\$\(/);
  assert.doesNotMatch(shown, /[\u202a-\u202e\u0007]/);
  assert.match(shown, /Allow and continue/);
});
