// Sending an earlier message again (Retry, Edit and send again): ACP has no rewind, so the resend is a new turn,
// marked on the wire in its first text block's `_meta`; the store reads the mark back from what the client sent
// (never from the agent), the chat says which message it repeats, and a malformed mark is ignored.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { editingNotice, isResendable, presentDeliveries } from '../../src/presentation';
import { markResend, readResendMark } from '../../src/protocol/resendMark';
import type { MessageEntry } from '../../src/store/model';
import { Wire } from './support/storeFixtures';

const userMessages = (w: Wire, id: string): MessageEntry[] => w.session(id).entries.filter((e): e is MessageEntry => e.kind === 'message' && e.role === 'user');
const clock = (at: number): string => `t${at}`;

test('the mark rides on the first text block, keeps its other _meta, and reads back', () => {
  const image = { type: 'image', mimeType: 'image/png', data: 'AA==' };
  const marked = markResend([image, { type: 'text', text: 'hi', _meta: { other: 1 } }], { how: 'retry', of: { at: 5, entryId: 'msg3' } });
  assert.deepEqual(marked[0], image, 'other blocks are untouched');
  assert.deepEqual(marked[1], { type: 'text', text: 'hi', _meta: { other: 1, 'subchats/resend': { how: 'retry', of: { at: 5, entryId: 'msg3' } } } });
  assert.deepEqual(readResendMark(marked), { how: 'retry', of: { at: 5, entryId: 'msg3' } });
  const onlyImage = markResend([image], { how: 'edit', of: { at: 7 } });
  assert.equal(onlyImage.length, 2, 'an empty text block carries the mark when there is no text');
  assert.deepEqual(readResendMark(onlyImage), { how: 'edit', of: { at: 7 } });
});

test('a malformed or absent mark reads as none', () => {
  const bad = [
    [],
    [{ type: 'text', text: 'x' }],
    [{ type: 'text', text: 'x', _meta: null }],
    [{ type: 'text', text: 'x', _meta: { 'subchats/resend': 'retry' } }],
    [{ type: 'text', text: 'x', _meta: { 'subchats/resend': { how: 'rewind', of: { at: 1 } } } }],
    [{ type: 'text', text: 'x', _meta: { 'subchats/resend': { how: 'retry', of: { at: 'noon' } } } }],
    [{ type: 'text', text: 'x', _meta: { 'subchats/resend': { how: 'retry', of: { at: Number.NaN } } } }],
    [{ type: 'text', text: 'x', _meta: { 'subchats/resend': { how: 'retry' } } }],
    [null, 'text', 3],
  ];
  for (const blocks of bad) assert.equal(readResendMark(blocks), undefined, JSON.stringify(blocks));
});

test('the store marks a resent prompt and a resent steer, from what the client sent only', () => {
  const w = new Wire();
  w.store.ingest({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1 } }, 'client->agent');
  w.store.ingest({ jsonrpc: '2.0', id: 0, result: { protocolVersion: 1, agentCapabilities: {}, _meta: { steering: { supported: true } } } }, 'agent->client');
  w.newSession('R');
  w.prompt('R', 'rename foo')('end_turn');
  const [first] = userMessages(w, 'R');
  const retry = markResend([{ type: 'text', text: 'rename foo' }], { how: 'retry', of: { at: first!.at, entryId: first!.id } });
  w.store.ingest({ jsonrpc: '2.0', id: 50, method: 'session/prompt', params: { sessionId: 'R', prompt: retry } }, 'client->agent');
  const edit = markResend([{ type: 'text', text: 'rename foo to bar' }], { how: 'edit', of: { at: first!.at, entryId: first!.id } });
  w.store.ingest({ jsonrpc: '2.0', id: 51, method: '_session/steering', params: { sessionId: 'R', prompt: edit } }, 'client->agent');
  // The agent cannot claim a resend: its own user message keeps no mark.
  w.store.ingest(
    { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'R', update: { sessionUpdate: 'user_message_chunk', content: edit[0] } } },
    'agent->client',
  );
  const marks = userMessages(w, 'R').map((m) => [m.text, m.resend?.how, m.steer?.status]);
  assert.deepEqual(marks.slice(0, 3), [
    ['rename foo', undefined, undefined],
    ['rename foo', 'retry', undefined],
    ['rename foo to bar', 'edit', 'sending'],
  ]);
  assert.ok(userMessages(w, 'R').slice(3).every((m) => m.resend === undefined), 'no entry the agent wrote is marked');
});

test('the chat says which message a resend repeats, and that the turns after it stay', () => {
  const entry = { kind: 'message', id: 'm', rev: 1, at: 9, role: 'user', text: 'x', attachments: [], resend: { how: 'retry', of: { at: 4 } } } as MessageEntry;
  assert.deepEqual(
    presentDeliveries(entry, clock).map((l) => [l.kind, l.text]),
    [['resend', 'Sent again: your message of t4, as a new turn; the turns after it stay']],
  );
  const edited = { ...entry, resend: { how: 'edit', of: { at: 4 } } } as MessageEntry;
  assert.match(presentDeliveries(edited, clock)[0]!.text, /^Edited and sent again: your message of t4/);
  assert.match(editingNotice(4, clock), /^Editing your message of t4: it goes as a new turn/);
});

test('only the user\'s own words as sent from here can be sent again', () => {
  const base = { kind: 'message', id: 'm', rev: 1, at: 1, text: 'x', attachments: [] };
  const resendable = (extra: object): boolean => isResendable({ ...base, ...extra } as unknown as MessageEntry);
  assert.equal(resendable({ role: 'user' }), true);
  assert.equal(resendable({ role: 'agent' }), false);
  assert.equal(resendable({ role: 'thought' }), false);
  assert.equal(resendable({ role: 'user', addedByAgent: true }), false);
  assert.equal(resendable({ role: 'user', relay: { side: 'parent' } }), false);
  assert.equal(resendable({ role: 'user', relay: { side: 'child' } }), true);
});
