// An answer given while the store already shows a permission, before the request's handler has registered
// (vscode-jsonrpc hands requests over one per event-loop turn), reaches the agent at registration.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_EARLY_ANSWERS, PermissionBroker } from '../../src/host/permissionBroker';

describe('permission broker', () => {
  it('answers a registered request once, then says it is no longer pending', () => {
    const broker = new PermissionBroker(() => true);
    const answers: (string | null)[] = [];
    const registration = broker.register('c1', '7', (optionId) => answers.push(optionId));
    assert.equal(broker.answer('c1', '7', 'allow'), true);
    registration.dispose();
    assert.equal(broker.answer('c1', '7', 'allow'), false);
    assert.deepEqual(answers, ['allow']);
  });

  it('keeps an answer to a request the store shows pending and gives it when the handler registers', () => {
    const broker = new PermissionBroker((connectionId, requestId) => connectionId === 'c1' && requestId === '0');
    assert.equal(broker.answer('c1', '0', 'reject'), true, 'the chat showed the request: the answer is taken');
    const answers: (string | null)[] = [];
    broker.register('c1', '0', (optionId) => answers.push(optionId));
    assert.deepEqual(answers, ['reject']);
    assert.equal(broker.answer('c1', '0', 'allow'), false, 'a second answer to the same request is refused');
  });

  it('refuses an answer to a request the store does not show pending, and a second early answer', () => {
    const broker = new PermissionBroker((_connectionId, requestId) => requestId === '1');
    assert.equal(broker.answer('c1', '2', 'allow'), false);
    assert.equal(broker.answer('c1', '1', 'allow'), true);
    assert.equal(broker.answer('c1', '1', 'reject'), false);
    const answers: (string | null)[] = [];
    broker.register('c1', '1', (optionId) => answers.push(optionId));
    assert.deepEqual(answers, ['allow'], 'the first answer is the one given');
  });

  it('keeps at most MAX_EARLY_ANSWERS early answers, dropping the oldest', () => {
    const broker = new PermissionBroker(() => true);
    for (let i = 0; i <= MAX_EARLY_ANSWERS; i++) assert.equal(broker.answer('c1', String(i), 'allow'), true);
    const oldest: (string | null)[] = [];
    broker.register('c1', '0', (optionId) => oldest.push(optionId));
    assert.deepEqual(oldest, [], 'the oldest early answer was dropped; the request waits for a new answer');
    const newest: (string | null)[] = [];
    broker.register('c1', String(MAX_EARLY_ANSWERS), (optionId) => newest.push(optionId));
    assert.deepEqual(newest, ['allow']);
  });
});
