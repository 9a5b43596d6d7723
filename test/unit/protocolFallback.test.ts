// When a start restarts the agent to offer the next ACP version: after a failure, or an answer of that version.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AgentStartError } from '../../src/acp/errors';
import { restartAfter } from '../../src/acp/protocolFallback';

test('auto ([2, 1]): a failure at 2 or an answer of 1 restarts at 1; an answer of 2 does not', () => {
  const failed = restartAfter([2, 1], 0, { error: new Error('Unsupported protocol version') });
  assert.deepEqual(failed, { offer: 1, why: 'did not initialize at ACP v2 (Unsupported protocol version); restarting it to offer v1' });
  assert.deepEqual(restartAfter([2, 1], 0, { answered: 1 }), { offer: 1, why: 'answered ACP v1; restarting it to offer v1 with its client capabilities' });
  assert.equal(restartAfter([2, 1], 0, { answered: 2 }), undefined);
});

test('the last version offered is never retried, whatever happened', () => {
  assert.equal(restartAfter([2, 1], 1, { error: new Error('refused') }), undefined);
  assert.equal(restartAfter([2, 1], 1, { answered: 1 }), undefined);
  assert.equal(restartAfter([2], 0, { answered: 1 }), undefined, 'setting 2 speaks 1 to an agent that answers 1');
  assert.equal(restartAfter([1], 0, { error: 'not an Error' }), undefined);
});

test('a command that could not be started at all is not started again for another version', () => {
  const missing = new AgentStartError('Missing', 'no-such-agent', Object.assign(new Error('spawn no-such-agent ENOENT'), { code: 'ENOENT' }));
  assert.equal(restartAfter([2, 1], 0, { error: missing }), undefined);
});
