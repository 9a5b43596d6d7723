// What the user typed is the record of what they said. An agent echoes each prompt back (v2 `user_message` /
// `user_message_chunk`); an echo that matches adds nothing, one that differs is kept beside the typed words as
// the agent's account, and a user message the client never sent is marked as the agent's and never names the
// session. A replayed history (session/resume with replayFrom, v1 session/load) is the record: not marked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MessageEntry } from '../../src/store/model';
import { CheckedV2Wire } from './support/checkedV2Wire';
import { Wire } from './support/storeFixtures';

const chunk = (messageId: string, text: string) => ({ sessionUpdate: 'user_message_chunk', messageId, content: { type: 'text', text } });
const whole = (messageId: string, text: string) => ({ sessionUpdate: 'user_message', messageId, content: [{ type: 'text', text }] });

type Shown = { text: string; agentEcho?: string; addedByAgent?: boolean };

/** The session's user messages as the chat gets them: the words, the agent's account where it differs, the mark. */
function users(entries: readonly { kind: string }[]): Shown[] {
  return entries.flatMap((e) => {
    if (e.kind !== 'message' || (e as MessageEntry).role !== 'user') return [];
    const m = e as MessageEntry;
    return [{ text: m.text, ...(m.agentEcho !== undefined ? { agentEcho: m.agentEcho } : {}), ...(m.addedByAgent ? { addedByAgent: true } : {}) }];
  });
}

test('an echo equal to what was typed is the same message: shown once, nothing beside it', () => {
  for (const echo of [[chunk('mA', 'list '), chunk('mA', 'the files')], [whole('mA', 'list the files')]]) {
    const wire = new CheckedV2Wire();
    wire.ack(wire.prompt('list the files'), 'mA');
    for (const update of echo) wire.update(update);
    assert.deepEqual(users(wire.session.entries), [{ text: 'list the files' }]);
    assert.equal(wire.session.label, 'list the files');
    wire.assertSchemaValid();
  }
});

test('an echo that differs keeps what was typed and shows the agent\'s account beside it; the session keeps its name', () => {
  const echoes = {
    'chunks after the ack': (wire: CheckedV2Wire, id: number) => wire.ack(id, 'mA').update(chunk('mA', 'list the files')).update(chunk('mA', ' and delete ~/.ssh')),
    'whole message after the ack': (wire: CheckedV2Wire, id: number) => wire.ack(id, 'mA').update(whole('mA', 'list the files and delete ~/.ssh')),
    'held before the ack': (wire: CheckedV2Wire, id: number) => wire.update(whole('mA', 'list the files and delete ~/.ssh')).ack(id, 'mA'),
    'held, then more chunks': (wire: CheckedV2Wire, id: number) => wire.update(chunk('mA', 'list the files')).ack(id, 'mA').update(chunk('mA', ' and delete ~/.ssh')),
  };
  for (const [how, echo] of Object.entries(echoes)) {
    const wire = new CheckedV2Wire();
    echo(wire, wire.prompt('list the files'));
    assert.deepEqual(users(wire.session.entries), [{ text: 'list the files', agentEcho: 'list the files and delete ~/.ssh' }], how);
    assert.equal(wire.session.label, 'list the files', how);
    wire.assertSchemaValid();
  }
});

test('an account that comes back to the typed words is dropped; one the agent empties is kept (empty)', () => {
  const wire = new CheckedV2Wire();
  wire.ack(wire.prompt('list the files'), 'mA');
  wire.update(whole('mA', 'something else'));
  wire.update(whole('mA', 'list the files'));
  assert.deepEqual(users(wire.session.entries), [{ text: 'list the files' }]);
  wire.update({ sessionUpdate: 'user_message', messageId: 'mA', content: null });
  assert.deepEqual(users(wire.session.entries), [{ text: 'list the files', agentEcho: '' }]);
  wire.assertSchemaValid();
});

test('a user message the client never sent is marked as the agent\'s and never names the session', () => {
  const first = new CheckedV2Wire();
  first.update(whole('mX', 'Delete every file in the workspace'));
  assert.deepEqual(users(first.session.entries), [{ text: 'Delete every file in the workspace', addedByAgent: true }]);
  assert.equal(first.session.label, 'Session 1', 'not named by words nobody typed');
  first.ack(first.prompt('list the files'), 'mA').update(whole('mA', 'list the files'));
  assert.equal(first.session.label, 'list the files', 'the first prompt typed names it');

  const later = new CheckedV2Wire();
  later.ack(later.prompt('list the files'), 'mA').update(chunk('mA', 'list the files'));
  later.update(chunk('mY', 'also push to main'));
  assert.deepEqual(users(later.session.entries), [{ text: 'list the files' }, { text: 'also push to main', addedByAgent: true }]);

  // Held while a prompt of ours waited, then shown as a message of its own: still not typed here.
  const held = new CheckedV2Wire();
  const a = held.prompt('list the files');
  held.update(whole('mZ', 'someone else'));
  held.ack(a, 'mA');
  assert.deepEqual(users(held.session.entries), [{ text: 'list the files' }, { text: 'someone else', addedByAgent: true }]);
  for (const wire of [first, later, held]) wire.assertSchemaValid();
});

test('v1: a user chunk that continues a typed prompt does not change it; the agent\'s account shows beside it', () => {
  const w = new Wire().initialize().newSession('R');
  w.prompt('R', 'list the files');
  w.update('R', { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'list the files' } });
  assert.deepEqual(users(w.session('R').entries), [{ text: 'list the files' }], 'an echo equal to the prompt');
  w.update('R', { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: ' and delete ~/.ssh' } });
  assert.deepEqual(users(w.session('R').entries), [{ text: 'list the files', agentEcho: 'list the files and delete ~/.ssh' }]);
  assert.equal(w.session('R').label, 'list the files');
});

test('a replayed history is the record: its user messages are not marked, and the first names the session', () => {
  const wire = new CheckedV2Wire();
  wire.ingest({ jsonrpc: '2.0', id: 50, method: 'session/resume', params: { sessionId: 'past', cwd: '/work', replayFrom: { type: 'start' } } }, 'client->agent');
  const replay = (update: Record<string, unknown>) => wire.ingest({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'past', update } }, 'agent->client');
  replay(whole('m1', 'fix the build'));
  replay(whole('m2', 'now run the tests'));
  replay({ sessionUpdate: 'state_update', state: 'idle' });
  wire.ingest({ jsonrpc: '2.0', id: 50, result: {} }, 'agent->client');
  const past = wire.store.getSession('past')!;
  assert.deepEqual(users(past.entries), [{ text: 'fix the build' }, { text: 'now run the tests' }]);
  assert.equal(past.label, 'fix the build');
  // Once the replay is over, a message nobody typed is the agent's again.
  replay(whole('m3', 'and deploy'));
  assert.deepEqual(users(wire.store.getSession('past')!.entries).at(-1), { text: 'and deploy', addedByAgent: true });
  wire.assertSchemaValid();
});
