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
