import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { publicApiFor } from '../../src/host/apiSurface';

const full = { version: '1', snapshot: () => [], pendingPermissions: () => [], answerPermission: () => true };

test('outside the Test extension mode, no extension can list or answer agent permissions through the API', () => {
  for (const mode of ['production', 'development'] as const) {
    const api = publicApiFor(full, mode) as Record<string, unknown>;
    assert.equal('pendingPermissions' in api, false, mode);
    assert.equal('answerPermission' in api, false, mode);
    assert.equal(typeof api['snapshot'], 'function');
  }
  const test = publicApiFor(full, 'test') as Record<string, unknown>;
  assert.equal(typeof test['answerPermission'], 'function');
  assert.equal(typeof test['pendingPermissions'], 'function');
});
