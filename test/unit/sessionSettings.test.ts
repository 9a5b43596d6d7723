// One reading of advertised modes and config options for the chat header and "Change Mode or Option…".
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isAdvertisedChange, sessionSettings } from '../../src/presentation';

const modes = { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'plan', name: 'Plan', description: 'No edits' }, { name: 'no id' }] };

test('modes come first; a config option of category mode is left out when modes are advertised', () => {
  const settings = sessionSettings({
    modes,
    currentModeId: 'plan',
    configOptions: [
      { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: 'ask', options: [{ value: 'ask' }] },
      { id: 'model', name: 'Model', type: 'select', currentValue: 'b', options: [{ value: 'a', name: 'A' }, { group: 'more', name: 'More', options: [{ value: 'b', name: 'B' }] }] },
      { id: 'thoughts', name: 'Thoughts', type: 'boolean', currentValue: true },
    ],
  });
  assert.deepEqual(settings, [
    { kind: 'mode', id: 'mode', name: 'Mode', type: 'select', current: 'plan', choices: [{ value: 'ask', name: 'Ask' }, { value: 'plan', name: 'Plan', description: 'No edits' }] },
    { kind: 'option', id: 'model', name: 'Model', type: 'select', current: 'b', choices: [{ value: 'a', name: 'A' }, { value: 'b', name: 'B' }] },
    { kind: 'option', id: 'thoughts', name: 'Thoughts', type: 'boolean', current: true, choices: [] },
  ]);
});

test('without modes the mode config option is the mode picker; bad input gives no picker', () => {
  const option = { id: 'mode', category: 'mode', type: 'select', currentValue: 7, options: [{ value: 'x' }] };
  assert.deepEqual(sessionSettings({ modes: null, currentModeId: null, configOptions: [option] }), [
    { kind: 'option', id: 'mode', name: 'mode', type: 'select', current: null, choices: [{ value: 'x', name: 'x' }] },
  ]);
  assert.deepEqual(sessionSettings({ modes: { availableModes: 'no' }, currentModeId: null, configOptions: { id: 'x' } }), []);
  assert.deepEqual(sessionSettings({ modes: { availableModes: [] }, currentModeId: null, configOptions: [null, 3, { id: 'empty', options: [] }] }), []);
});

test('only advertised values may be sent', () => {
  const settings = sessionSettings({ modes, currentModeId: null, configOptions: [{ id: 'thoughts', type: 'boolean', currentValue: false }] });
  assert.equal(isAdvertisedChange(settings, 'mode', 'mode', 'plan'), true);
  assert.equal(isAdvertisedChange(settings, 'mode', 'mode', 'yolo'), false);
  assert.equal(isAdvertisedChange(settings, 'option', 'thoughts', true), true);
  assert.equal(isAdvertisedChange(settings, 'option', 'thoughts', 'true'), false);
  assert.equal(isAdvertisedChange(settings, 'option', 'model', 'a'), false);
});
