// Agent-supplied names that match inherited object properties are just unknown values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toolKindIcon, stateLabel as webviewStateLabel } from '../../webview/lib/format';
import { stateIcon } from '../../src/views/sessionTreeModel';

test('kinds, states and stop reasons named like Object.prototype members fall back to defaults', () => {
  for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
    assert.equal(typeof toolKindIcon(name), 'string');
    assert.equal(toolKindIcon(name), 'tools');
    assert.equal(stateIcon({ state: 'idle', stopReason: name }).icon, 'pass-filled');
    assert.equal(typeof webviewStateLabel({ state: { state: name } } as never), 'string');
  }
});
