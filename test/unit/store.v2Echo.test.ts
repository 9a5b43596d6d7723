// ACP v2 prompts in flight together: each session/prompt is acknowledged with its own messageId and echoed
// as a user message with that id, acks and echoes in any order. Only an acknowledgement says which copy an id
// is: an echo that comes first is held (the copy already shows the words) and lands on its copy with the ack.
// Every client copy ends up with its own messageId, keeps the words sent, and shows once, in the order it was
// sent; an echo that says something else is the agent's account beside it. Every message is checked against
// the v2 schemas.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CheckedV2Wire } from './support/checkedV2Wire';
import { addUserPrompt } from '../../src/store/reducers/messages';
import { acknowledgePrompt } from '../../src/store/reducers/promptEchoes';
import { newSessionRecord } from '../../src/store/sessionRecord';
import { RecordKeeper } from '../../src/store/recordKeeper';
import type { ReducerContext } from '../../src/store/reducerContext';

/**
 * The session's user messages as `text@messageId`, in transcript order, with ` (agent: …)` where the agent's
 * account differs and ` (added by the agent)` on messages the client never sent.
 */
function users(wire: CheckedV2Wire): string[] {
  return wire.session.entries.flatMap((e) => {
    if (e.kind !== 'message' || e.role !== 'user') return [];
    const account = e.agentEcho !== undefined ? ` (agent: ${e.agentEcho})` : '';
    return [`${e.text}@${e.messageId ?? '-'}${account}${e.addedByAgent ? ' (added by the agent)' : ''}`];
  });
}

const chunk = (messageId: string, text: string) => ({ sessionUpdate: 'user_message_chunk', messageId, content: { type: 'text', text } });
const whole = (messageId: string, text: string) => ({ sessionUpdate: 'user_message', messageId, content: [{ type: 'text', text }] });

/** Two prompts; B's echo (its words expanded by the agent) came before any acknowledgement: it is held. */
function echoOfBFirst() {
  const prompts = twoPrompts();
  prompts.wire.update(whole('mB', 'do B (expanded)'));
  assert.deepEqual(users(prompts.wire), ['do A@-', 'do B@-'], 'held: the copies show what was sent');
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
    assert.deepEqual(users(wire), ['do A@mA', 'do B@mB'], `acks ${order.join(', ')}: the echoes are the copies, once each`);
    wire.assertSchemaValid();
  }
});

test('two prompts: echoes before their acks are held, and each lands on its own copy with its ack', () => {
  const { wire, a, b } = twoPrompts();
  wire.update(chunk('mA', 'do ')).update(chunk('mA', 'A (expanded)'));
  wire.update(whole('mB', 'do B (expanded)'));
  assert.deepEqual(users(wire), ['do A@-', 'do B@-'], 'nothing is guessed before an ack');
  wire.ack(b, 'mB');
  assert.deepEqual(users(wire), ['do A@-', 'do B@mB (agent: do B (expanded))']);
  wire.ack(a, 'mA');
  assert.deepEqual(users(wire), ['do A@mA (agent: do A (expanded))', 'do B@mB (agent: do B (expanded))']);
  assert.deepEqual(wire.codes(), []);
  wire.assertSchemaValid();
});

test('two prompts inserted out of order: each copy keeps its own text and id; echo chunks after the ack stream into its account', () => {
  const { wire, a, b } = twoPrompts();
  wire.update(chunk('mB', 'do '));
  wire.update(chunk('mA', 'do A'));
  wire.ack(a, 'mA');
  assert.deepEqual(users(wire), ['do A@mA', 'do B@-'], 'A has its own echo; B\'s is still held');
  wire.update(chunk('mB', 'B'));
  wire.ack(b, 'mB');
  assert.deepEqual(users(wire), ['do A@mA', 'do B@mB']);
  wire.update(chunk('mB', '!'));
  assert.deepEqual(users(wire), ['do A@mA', 'do B@mB (agent: do B!)']);
  assert.deepEqual(wire.codes(), []);
  wire.assertSchemaValid();
});

test('a held echo waits for its own ack, not the first one: the other copy keeps what was sent until its echo', () => {
  const { wire, a, b } = echoOfBFirst();
  wire.ack(a, 'mA');
  assert.deepEqual(users(wire), ['do A@mA', 'do B@-']);
  wire.update(whole('mA', 'do A (expanded)'));
  wire.ack(b, 'mB');
  assert.deepEqual(users(wire), ['do A@mA (agent: do A (expanded))', 'do B@mB (agent: do B (expanded))']);
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

test('a refused prompt waits for no echo; an echo held meanwhile goes to the prompt it belongs to', () => {
  const refusedFirst = twoPrompts();
  refusedFirst.wire.refuse(refusedFirst.a, 'busy').update(whole('mB', 'do B (expanded)')).ack(refusedFirst.b, 'mB');
  const echoFirst = echoOfBFirst();
  echoFirst.wire.refuse(echoFirst.a, 'busy');
  assert.deepEqual(users(echoFirst.wire), ['do A@-', 'do B@-'], 'B still waits for its ack');
  echoFirst.wire.ack(echoFirst.b, 'mB');
  for (const { wire } of [refusedFirst, echoFirst]) {
    assert.deepEqual(users(wire), ['do A@-', 'do B@mB (agent: do B (expanded))']);
    wire.assertSchemaValid();
  }
});

test('an echo with no prompt waiting is a user message of its own (another client\'s prompt), marked as the agent\'s', () => {
  const wire = new CheckedV2Wire();
  const a = wire.prompt('do A');
  wire.ack(a, 'mA');
  wire.update(whole('mA', 'do A'));
  wire.update(whole('mX', 'someone else'));
  assert.deepEqual(users(wire), ['do A@mA', 'someone else@mX (added by the agent)']);
  wire.assertSchemaValid();
});

test('another client\'s prompt while ours waits is held, then shown as a message of its own after our ack: no message twice', () => {
  const wire = new CheckedV2Wire();
  const a = wire.prompt('do A');
  wire.update(whole('mX', 'someone else'));
  wire.update(whole('mA', 'do A'));
  assert.deepEqual(users(wire), ['do A@-'], 'both held until the ack says which is ours');
  wire.ack(a, 'mA');
  assert.deepEqual(users(wire), ['do A@mA', 'someone else@mX (added by the agent)']);
  wire.update(chunk('mX', '!'));
  assert.deepEqual(users(wire), ['do A@mA', 'someone else!@mX (added by the agent)'], 'later chunks follow the id');
  assert.deepEqual(wire.codes(), []);
  wire.assertSchemaValid();
});

test('another client\'s prompt while ours waits, acked before our echo: shown as a message of its own', () => {
  const wire = new CheckedV2Wire();
  const a = wire.prompt('do A');
  wire.update(whole('mX', 'someone else'));
  wire.ack(a, 'mA');
  assert.deepEqual(users(wire), ['do A@mA', 'someone else@mX (added by the agent)']);
  wire.update(whole('mA', 'do A'));
  assert.deepEqual(users(wire), ['do A@mA', 'someone else@mX (added by the agent)']);
  wire.assertSchemaValid();
});

test('a prompt in flight survives a rebuild of its session\'s lookups (entries moved in by a merge): it still takes its acknowledgement', () => {
  const core = new RecordKeeper({ now: () => 1, maxDiagnostics: 10, maxStateHistory: 10 });
  const session = newSessionRecord({ id: 'root', ordinal: 1, parentId: null, parentToolCallId: null, link: 'root', origin: 'root', state: { state: 'idle' } }, 1, 0);
  core.sessions.set(session.id, session);
  // Only the core is used by these reducers.
  addUserPrompt({ core } as unknown as ReducerContext, session, [{ type: 'text', text: 'do A' }], false, 'req-a');
  core.reindex(session);
  acknowledgePrompt(core, session, 'req-a', 'mA');
  assert.equal((session.entries[0] as { messageId?: string }).messageId, 'mA', 'the copy still takes its acknowledgement');
});

test('an acknowledgement without an id (an older draft answered `{}`): the next echo no ack claims is that prompt\'s', () => {
  const single = new CheckedV2Wire();
  single.ack(single.prompt('do A'), '');
  single.update(whole('mA', 'do A (expanded)'));
  assert.deepEqual(users(single), ['do A@mA (agent: do A (expanded))']);
  const { wire, a, b } = twoPrompts();
  wire.ack(a, '');
  wire.update(whole('mA', 'do A (expanded)'));
  assert.deepEqual(users(wire), ['do A@-', 'do B@-'], 'held while B waits: it might be B\'s');
  wire.ack(b, 'mB');
  wire.update(whole('mB', 'do B'));
  assert.deepEqual(users(wire), ['do A@mA (agent: do A (expanded))', 'do B@mB']);
  assert.deepEqual(wire.codes(), []);
});
