// ACP v2 prompts in flight together: each session/prompt is acknowledged with its own messageId and echoed
// as a user message with that id, acks and echoes in any order. Every client copy ends up with its own
// messageId and text, shown once, in the order it was sent. Every message is checked against the v2 schemas.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CheckedV2Wire } from './support/checkedV2Wire';
import { addUserPrompt } from '../../src/store/reducers/messages';
import { acknowledgePrompt } from '../../src/store/reducers/promptEchoes';
import { newSessionRecord } from '../../src/store/sessionRecord';
import { StoreCore } from '../../src/store/storeCore';
import type { StoreParts } from '../../src/store/storeParts';

/** The session's user messages as `text@messageId`, in transcript order. */
function users(wire: CheckedV2Wire): string[] {
  return wire.session.entries.flatMap((e) => (e.kind === 'message' && e.role === 'user' ? [`${e.text}@${e.messageId ?? '-'}`] : []));
}

const chunk = (messageId: string, text: string) => ({ sessionUpdate: 'user_message_chunk', messageId, content: { type: 'text', text } });
const whole = (messageId: string, text: string) => ({ sessionUpdate: 'user_message', messageId, content: [{ type: 'text', text }] });

/** Two prompts; B's echo (its words expanded by the agent) came first and was taken for A, the oldest waiting. */
function echoOfBTakenForA() {
  const prompts = twoPrompts();
  prompts.wire.update(whole('mB', 'do B (expanded)'));
  assert.deepEqual(users(prompts.wire), ['do B (expanded)@mB', 'do B@-'], 'taken for A: the oldest waiting');
  return prompts;
}

/** A session with prompts "do A" and "do B" sent (request ids `a` and `b`), neither acknowledged nor echoed. */
function twoPrompts() {
  const wire = new CheckedV2Wire();
  return { wire, a: wire.prompt('do A'), b: wire.prompt('do B') };
}

test('two prompts: each acknowledgement binds its own prompt, whichever order they come in', () => {
  for (const order of [['a', 'b'], ['b', 'a']] as const) {
    const wire = new CheckedV2Wire();
    const ids = { a: wire.prompt('do A'), b: wire.prompt('do B') };
    for (const which of order) wire.ack(ids[which], `m${which.toUpperCase()}`);
    assert.deepEqual(users(wire), ['do A@mA', 'do B@mB'], `acks ${order.join(', ')}`);
    wire.update(chunk('mB', 'do ')).update(chunk('mA', 'do A')).update(chunk('mB', 'B'));
    assert.deepEqual(users(wire), ['do A@mA', 'do B@mB'], `acks ${order.join(', ')}: the echoes replace the copies, once each`);
    wire.assertSchemaValid();
  }
});

test('two prompts: echoes before their acks bind the oldest copy still waiting (agents insert in order)', () => {
  const { wire, a, b } = twoPrompts();
  wire.update(chunk('mA', 'do ')).update(chunk('mA', 'A'));
  wire.update(whole('mB', 'do B'));
  assert.deepEqual(users(wire), ['do A@mA', 'do B@mB']);
  wire.ack(b, 'mB').ack(a, 'mA');
  assert.deepEqual(users(wire), ['do A@mA', 'do B@mB'], 'the acks confirm the guesses');
  assert.deepEqual(wire.codes(), []);
  wire.assertSchemaValid();
});

test('two prompts inserted out of order: the acks correct the guesses, each copy keeps its own text and id', () => {
  const { wire, a, b } = twoPrompts();
  // B was inserted first: its echo is taken for A's (the oldest waiting), A's for B's.
  wire.update(chunk('mB', 'do '));
  wire.update(chunk('mA', 'do A'));
  wire.ack(a, 'mA');
  assert.deepEqual(users(wire), ['do A@mA', 'do @mB'], 'A has its own echo; the echo of B streams into B');
  wire.update(chunk('mB', 'B'));
  assert.deepEqual(users(wire), ['do A@mA', 'do B@mB']);
  wire.ack(b, 'mB');
  assert.deepEqual(users(wire), ['do A@mA', 'do B@mB']);
  assert.deepEqual(wire.codes(), []);
  wire.assertSchemaValid();
});

test('a guess the other prompt\'s ack shows wrong is undone: the copy gets its own text back until its echo', () => {
  const { wire, a, b } = echoOfBTakenForA();
  wire.ack(b, 'mB');
  assert.deepEqual(users(wire), ['do A@-', 'do B (expanded)@mB'], 'B takes its echo; A shows what was sent again');
  wire.ack(a, 'mA');
  wire.update(whole('mA', 'do A (expanded)'));
  assert.deepEqual(users(wire), ['do A (expanded)@mA', 'do B (expanded)@mB']);
  wire.assertSchemaValid();
});

test('three prompts, acks and echoes interleaved in several orders: one message each, with its own id and text', () => {
  type Step = ['ack', 'a' | 'b' | 'c'] | ['echo', 'a' | 'b' | 'c', string];
  const orders: Step[][] = [
    // in order, echo first
    [['echo', 'a', 'do '], ['echo', 'a', 'A'], ['ack', 'a'], ['echo', 'b', 'do B'], ['ack', 'b'], ['ack', 'c'], ['echo', 'c', 'do C']],
    // acks first, echoes reversed
    [['ack', 'c'], ['ack', 'a'], ['ack', 'b'], ['echo', 'c', 'do C'], ['echo', 'b', 'do B'], ['echo', 'a', 'do A']],
    // B acked, C's echo and A's echo stream interleaved before A's ack (both guessed wrong)
    [['ack', 'b'], ['echo', 'c', 'do '], ['echo', 'a', 'do '], ['echo', 'c', 'C'], ['ack', 'a'], ['echo', 'a', 'A'], ['echo', 'b', 'do B'], ['ack', 'c']],
    // every echo before any ack, reversed; acks in order
    [['echo', 'c', 'do C'], ['echo', 'b', 'do B'], ['echo', 'a', 'do A'], ['ack', 'a'], ['ack', 'b'], ['ack', 'c']],
    // reversed echoes, acks reversed
    [['echo', 'c', 'do C'], ['echo', 'b', 'do B'], ['echo', 'a', 'do A'], ['ack', 'c'], ['ack', 'b'], ['ack', 'a']],
  ];
  for (const steps of orders) {
    const wire = new CheckedV2Wire();
    const ids = { a: wire.prompt('do A'), b: wire.prompt('do B'), c: wire.prompt('do C') };
    for (const step of steps) {
      const messageId = `m${step[1].toUpperCase()}`;
      if (step[0] === 'ack') wire.ack(ids[step[1]], messageId);
      else wire.update(chunk(messageId, step[2]));
    }
    const label = steps.map((s) => s.join(':')).join(' ');
    assert.deepEqual(users(wire), ['do A@mA', 'do B@mB', 'do C@mC'], label);
    assert.deepEqual(wire.codes(), [], label);
    wire.assertSchemaValid();
  }
});

test('a refused prompt waits for no echo, and gives an echo taken for it to the prompt after it', () => {
  const refusedFirst = twoPrompts();
  refusedFirst.wire.refuse(refusedFirst.a, 'busy').update(whole('mB', 'do B (expanded)')).ack(refusedFirst.b, 'mB');
  const echoFirst = echoOfBTakenForA();
  echoFirst.wire.refuse(echoFirst.a, 'busy');
  assert.deepEqual(users(echoFirst.wire), ['do A@-', 'do B (expanded)@mB'], 'the echo moves to B on the refusal');
  echoFirst.wire.ack(echoFirst.b, 'mB');
  for (const { wire } of [refusedFirst, echoFirst]) {
    assert.deepEqual(users(wire), ['do A@-', 'do B (expanded)@mB']);
    wire.assertSchemaValid();
  }
});

test('an echo with no prompt waiting is a user message of its own (another client\'s prompt)', () => {
  const wire = new CheckedV2Wire();
  const a = wire.prompt('do A');
  wire.ack(a, 'mA');
  wire.update(whole('mA', 'do A'));
  wire.update(whole('mX', 'someone else'));
  assert.deepEqual(users(wire), ['do A@mA', 'someone else@mX']);
  wire.assertSchemaValid();
});


test('another client\'s prompt taken for ours is given back when the ack names our own echo: no message twice', () => {
  const wire = new CheckedV2Wire();
  const a = wire.prompt('do A');
  wire.update(whole('mX', 'someone else'));
  wire.update(whole('mA', 'do A'));
  assert.deepEqual(users(wire), ['someone else@mX', 'do A@mA'], 'guessed wrong: our echo had no copy left');
  wire.ack(a, 'mA');
  assert.deepEqual(users(wire), ['do A@mA', 'someone else@mX']);
  wire.update(chunk('mX', '!'));
  assert.deepEqual(users(wire), ['do A@mA', 'someone else!@mX'], 'later chunks follow the id');
  assert.deepEqual(wire.codes(), []);
  wire.assertSchemaValid();
});

test('another client\'s prompt taken for ours, acked before our echo: it stays shown, as a message of its own', () => {
  const wire = new CheckedV2Wire();
  const a = wire.prompt('do A');
  wire.update(whole('mX', 'someone else'));
  wire.ack(a, 'mA');
  assert.deepEqual(users(wire), ['do A@mA', 'someone else@mX']);
  wire.update(whole('mA', 'do A'));
  assert.deepEqual(users(wire), ['do A@mA', 'someone else@mX']);
  wire.assertSchemaValid();
});

test('a prompt in flight survives a rebuild of its session\'s lookups (entries moved in by a merge): its echo still replaces the copy', () => {
  const core = new StoreCore({ now: () => 1, maxDiagnostics: 10, maxStateHistory: 10 });
  const session = newSessionRecord({ id: 'root', ordinal: 1, parentId: null, parentToolCallId: null, link: 'root', origin: 'root', state: { state: 'idle' } }, 1, 0);
  core.sessions.set(session.id, session);
  // Only the core is used by these reducers.
  addUserPrompt({ core } as unknown as StoreParts, session, [{ type: 'text', text: 'do A' }], 'req-a');
  core.reindex(session);
  acknowledgePrompt(core, session, 'req-a', 'mA');
  assert.equal((session.entries[0] as { messageId?: string }).messageId, 'mA', 'the copy still takes its acknowledgement');
});
