import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { consentedApi, publicApiFor } from '../../src/host/apiSurface';

const calls: string[] = [];
const full = {
  version: '1',
  controls: () => ({}),
  onDidChange: () => ({ dispose() {} }),
  requestAccess: async () => ({}),
  startSession: async () => (calls.push('startSession'), { connectionId: 'c', sessionId: 's' }),
  prompt: async () => (calls.push('prompt'), { stopReason: 'end_turn' }),
  send: async () => (calls.push('send'), { route: 'prompt', sessionId: 's' }),
  cancel: async () => void calls.push('cancel'),
  snapshot: () => (calls.push('snapshot'), []),
  transcript: () => (calls.push('transcript'), '{}\n'),
  pendingPermissions: () => [],
  answerPermission: () => true,
};
const CONSENTED = ['startSession', 'prompt', 'send', 'cancel', 'snapshot', 'transcript'];

test('outside the Test extension mode, no extension can list or answer agent permissions through the API', () => {
  for (const mode of ['production', 'development'] as const) {
    const api = publicApiFor(full, mode) as Record<string, unknown>;
    assert.equal('pendingPermissions' in api, false, mode);
    assert.equal('answerPermission' in api, false, mode);
  }
  const test = publicApiFor(full, 'test') as Record<string, unknown>;
  assert.equal(typeof test['answerPermission'], 'function');
  assert.equal(typeof test['pendingPermissions'], 'function');
});

test('outside the Test extension mode, starting agents, prompting and reading transcripts go through requestAccess only', () => {
  for (const mode of ['production', 'development'] as const) {
    const api = publicApiFor(full, mode) as Record<string, unknown>;
    assert.deepEqual(Object.keys(api).sort(), ['controls', 'onDidChange', 'requestAccess', 'version'], mode);
  }
  const test = publicApiFor(full, 'test') as Record<string, unknown>;
  for (const key of CONSENTED) assert.equal(typeof test[key], 'function', key);
});

test('a granted handle calls through while access lasts and refuses (nothing called) once revoked', async () => {
  let allowed = true;
  const handle = consentedApi(full, () => allowed, () => new Error('revoked'));
  assert.deepEqual(Object.keys(handle).sort(), [...CONSENTED].sort());
  calls.length = 0;
  await handle.startSession();
  await handle.prompt();
  await handle.send();
  await handle.cancel();
  handle.snapshot();
  handle.transcript();
  assert.deepEqual(calls, ['startSession', 'prompt', 'send', 'cancel', 'snapshot', 'transcript']);

  allowed = false;
  calls.length = 0;
  for (const key of ['startSession', 'prompt', 'send', 'cancel'] as const) await assert.rejects(handle[key](), /revoked/, key);
  assert.throws(() => handle.snapshot(), /revoked/);
  assert.throws(() => handle.transcript(), /revoked/);
  assert.deepEqual(calls, []);
});
