// What a screen reader hears when a turn ends (src/presentation/turnEnd.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Entry, MessageEntry } from '../../src/protocol/transcript';
import { turnEndAnnouncement } from '../../src/presentation';

const message = (role: MessageEntry['role'], text: string, id: string): Entry => ({ kind: 'message', id, rev: 1, at: 0, role, text, attachments: [] });

const turn = [message('user', 'first', 'u1'), message('agent', 'old answer', 'a1'), message('user', 'second', 'u2'), message('thought', 'hmm', 't1'), message('agent', 'See [the docs](https://x.test) and **this**:\n```ts\nconst a = 1;\n```', 'a2')];

test('a turn seen running that ends says the agent\'s words since the last prompt, read as text', () => {
  assert.equal(turnEndAnnouncement({ state: 'running' }, { state: 'idle', stopReason: 'end_turn' }, turn), 'Agent: See the docs and this: const a = 1;');
});

test('nothing is said when no turn ended: opened finished, still working, or idle before', () => {
  assert.equal(turnEndAnnouncement(undefined, { state: 'idle', stopReason: 'end_turn' }, turn), undefined);
  assert.equal(turnEndAnnouncement({ state: 'running' }, { state: 'requires_action' }, turn), undefined);
  assert.equal(turnEndAnnouncement({ state: 'idle' }, { state: 'idle', stopReason: 'end_turn' }, turn), undefined);
});

test('a turn with no words says how it ended; a failure with a message is left to the header\'s alert', () => {
  assert.equal(turnEndAnnouncement({ state: 'running' }, { state: 'idle', stopReason: 'cancelled' }, [message('user', 'go', 'u1')]), "The agent's turn ended: Cancelled.");
  assert.equal(turnEndAnnouncement({ state: 'running' }, { state: 'idle', stopReason: 'max_tokens' }, turn), 'Agent (Stopped: max tokens): See the docs and this: const a = 1;');
  assert.equal(turnEndAnnouncement({ state: 'running' }, { state: 'idle', stopReason: 'error', error: { message: 'overloaded' } }, turn), undefined);
});

test('a long answer is cut', () => {
  const said = turnEndAnnouncement({ state: 'running' }, { state: 'idle', stopReason: 'end_turn' }, [message('agent', 'word '.repeat(1000), 'a')]);
  assert.ok(said !== undefined && said.length <= 'Agent: '.length + 1500 && said.endsWith('…'));
});
