// A cancel sent for a running child races the child's end. The product rule: the cancel either wins (the child
// ends `cancelled`) or the user is told it came too late (the end the agent reported after the cancel was sent
// shows as Done, with a note that the cancel came too late).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Actor, type RunContext } from '../../src/demoAgent/actor';
import { CancelScope } from '../../src/demoAgent/cancelScope';
import type { Channel, ChildOutcome, Update } from '../../src/demoAgent/channel';
import { createDialect } from '../../src/demoAgent/dialects';
import type { JsonObject } from '../../src/demoAgent/lineRpc';
import { presentState, stateExplanation } from '../../src/presentation';
import type { SessionView } from '../../src/store/model';
import { announce, text, Wire } from './support/storeFixtures';

// ---- the demo agent -------------------------------------------------------------------------------------------

interface Sent {
  readonly sessionId: string;
  readonly update: Update;
}

/** One root actor of the demo agent on the `acp` dialect, with what it sends and the cancel targets it registers. */
function demoRoot() {
  const sent: Sent[] = [];
  const targets = new Map<string, CancelScope>();
  let counter = 0;
  const send = (channel: Channel, update: Update) => sent.push({ sessionId: channel.wireSessionId, update: channel.stamp(update) });
  const newId = (prefix: string) => `${prefix}${counter++}`;
  const dialect = createDialect('acp', { send, newId, newSessionId: () => newId('child-') });
  const ctx: RunContext = {
    send,
    request: () => Promise.reject(new Error('no client requests in this test')),
    dialect,
    client: { readTextFile: false, writeTextFile: false, terminal: false },
    pace: 0,
    newId,
    registerCancelTarget: (sessionId, scope) => {
      targets.set(sessionId, scope);
      return () => targets.delete(sessionId);
    },
    registerItemCancel: () => () => undefined,
    registerChild: () => ({ ended: () => undefined }),
    log: () => undefined,
  };
  const root = new Actor(ctx, dialect.rootChannel('root'), new CancelScope());
  /** What DemoAgent.cancel does for a child id: cancel its scope if it is still registered. */
  const sessionCancel = (childId: string): boolean => {
    const scope = targets.get(childId);
    scope?.cancel();
    return scope !== undefined;
  };
  /** The states the agent reported for a child, as `state/stopReason`. */
  const statesOf = (childId: string): string[] =>
    sent
      .filter(({ update }) => update.sessionUpdate === 'subagent_update' && update['sessionId'] === childId && update['state'])
      .map(({ update }) => {
        const state = update['state'] as JsonObject;
        return `${String(state['state'])}/${String(state['stopReason'] ?? '')}`;
      });
  return { sent, root, sessionCancel, statesOf };
}

const EXPLORER = { subagentId: 'explorer', title: 'Explorer', description: 'Find TODO markers', prompt: 'Find them.', cancellable: true, runMode: 'foreground' } as const;

test('demo agent: a cancel that reaches a child after its last step, before its end is reported, wins', async () => {
  const { sent, root, sessionCancel, statesOf } = demoRoot();
  let childId = '';
  let accepted: boolean | undefined;
  const outcome: ChildOutcome = await root.spawn(EXPLORER, async (child) => {
    childId = child.channel.wireSessionId;
    await child.say('Explorer report.');
    // The last step is done and its text is on the wire; the end is not reported yet. session/cancel is handled
    // now (in process, a client's cancel can land between the last step and the end report, which takes a few
    // promise hops: the body's return, run() settling its children, the spawn's report).
    queueMicrotask(() => (accepted = sessionCancel(childId)));
    return 'Explorer report.';
  });
  assert.equal(accepted, true, 'the agent took the cancel while the child was still registered (not too late)');
  assert.ok(sent.some(({ sessionId, update }) => sessionId === childId && update.sessionUpdate === 'agent_message_chunk'), 'the last step was sent');
  assert.equal(outcome.stopReason, 'cancelled', 'the cancel the agent took before reporting the end wins');
  assert.deepEqual(statesOf(childId), ['running/', 'idle/cancelled']);
});

test('demo agent: a cancel that reaches a child after its end was reported is ignored (too late for the agent)', async () => {
  const { root, sessionCancel, statesOf } = demoRoot();
  let childId = '';
  const outcome = await root.spawn(EXPLORER, async (child) => {
    childId = child.channel.wireSessionId;
    await child.say('Explorer report.');
    return 'Explorer report.';
  });
  assert.equal(sessionCancel(childId), false, 'no longer a cancel target: DemoAgent logs "session/cancel ignored"');
  assert.equal(outcome.stopReason, 'end_turn');
  assert.deepEqual(statesOf(childId), ['running/', 'idle/end_turn']);
});

// ---- the client's store ---------------------------------------------------------------------------------------

/** A root R whose prompt runs the Explorer E (announced with capabilities.cancel, as the demo agent does). */
function explorerRunning(): Wire {
  const w = new Wire().newSession('R');
  w.prompt('R', 'Show me what you can do');
  w.update('R', announce('E', { title: 'Explorer', description: 'Find TODO markers', capabilities: { cancel: {} }, state: { state: 'running' } }));
  w.update('E', text('agent_message_chunk', 'Searching the workspace for `TODO` markers.'));
  return w;
}

function cancelFromClient(w: Wire, sessionId: string): void {
  w.store.ingest({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId } }, 'client->agent');
}

/** Everything the user can read about why the child ended as it did: its state's explanation and its notices. */
function whatTheUserIsTold(child: SessionView): string {
  const notices = child.entries.flatMap((e) => (e.kind === 'notice' ? [`${e.title} ${e.description ?? ''}`] : []));
  return [stateExplanation(child.stateHistory, { cancelRequestedAt: child.cancelRequestedAt, formatTime: () => 't' }), ...notices].join(' | ');
}

test(
  'store: a child end reported after the cancel was sent shows Done with a note that the cancel came too late',
  () => {
    const w = explorerRunning();
    cancelFromClient(w, 'E');
    w.update('R', announce('E', { state: { state: 'idle', stopReason: 'end_turn' } }));
    w.update('R', announce('E', { capabilities: { cancel: null } }));
    const child = w.session('E');
    assert.deepEqual([child.state.state, child.state.stopReason], ['idle', 'end_turn']);
    assert.equal(presentState(child.state, child).label, 'Done');
    assert.match(whatTheUserIsTold(child), /cancel came too late/i);
  },
);

test('store: a cancel that wins ends the child cancelled, with no "too late" note', () => {
  const w = explorerRunning();
  cancelFromClient(w, 'E');
  w.update('R', announce('E', { state: { state: 'idle', stopReason: 'cancelled' } }));
  w.update('R', announce('E', { capabilities: { cancel: null } }));
  const child = w.session('E');
  assert.deepEqual(child.state, { state: 'idle', stopReason: 'cancelled' });
  assert.equal(presentState(child.state, child).label, 'Cancelled');
  assert.doesNotMatch(whatTheUserIsTold(child), /too late/i);
});
