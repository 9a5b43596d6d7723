// One verdict everywhere: for every turn state a wire can put a session in, the tree item, the palette's
// pickers, the API snapshot, the session's own chat (header stop, mode pickers, prompt box) and its card in the
// parent's chat offer exactly what the controller (store.actionsFor) allows. Real SessionStores fed JSON-RPC
// messages, the real chat bundle in Chromium.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SessionActions } from '../../src/store/model';
import type { SessionStore } from '../../src/store/sessionStore';
import { announce, replayFixture, replayUntil, text, Wire } from '../unit/support/storeFixtures';
import { cardExpected, cardShows, chatExpected, chatShows, hostExpected, hostShows } from './controlViews';
import { FeedLink } from './feedLink';
import { useHarness, type ChatPage } from './harness';

const harness = useHarness();

const CLOSE = { sessionCapabilities: { close: {} } };
const MODES = { modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code' }] } };
const STEERING = { _meta: { steering: { supported: true } } };
const PERMISSION = { toolCall: { toolCallId: 'w1', title: 'Write notes.txt' }, options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }] };

/** An agent that closes sessions (and steers, when asked), with root R opened by the client and idle. */
function opened(steering = false): Wire {
  const w = new Wire();
  w.initialize({ agentCapabilities: CLOSE, ...(steering ? STEERING : {}) });
  return w.newSession('R', '/work', MODES);
}

/** R in a turn the agent has answered (its first words arrived). */
function running(steering = false): Wire {
  const w = opened(steering);
  w.prompt('R', 'go');
  return w.update('R', text('agent_message_chunk', 'On it.'));
}

/** R running with announced children: A running (cancel granted), B waiting on the user, C done, D without the grant. */
function withChildren(): Wire {
  const w = running();
  const grant = { capabilities: { cancel: {} } };
  w.update('R', announce('A', { title: 'Explorer', ...grant, state: { state: 'running' } }));
  w.update('R', announce('B', { title: 'Writer', ...grant, state: { state: 'requires_action' } }));
  w.update('R', announce('C', { title: 'Reviewer', ...grant, state: { state: 'idle', stopReason: 'end_turn' } }));
  return w.update('R', announce('D', { title: 'Scout', state: { state: 'running' } }));
}

/** R running a Claude Agent tool call whose own tool call says `parentToolUseId`: the virtual child R#task1. */
function withVirtualChild(): Wire {
  const w = running();
  w.update('R', { sessionUpdate: 'tool_call', toolCallId: 'task1', title: 'Find token checks', kind: 'think', status: 'pending', _meta: { claudeCode: { toolName: 'Agent' } } });
  return w.update('R', { sessionUpdate: 'tool_call', toolCallId: 'g1', title: 'grep verifyToken', kind: 'search', status: 'pending', _meta: { claudeCode: { toolName: 'Grep', parentToolUseId: 'task1' } } });
}

const SCENES: Readonly<Record<string, () => SessionStore>> = {
  'idle root': () => opened().store,
  'prompt sent, nothing answered (starting)': () => {
    const w = opened();
    w.prompt('R', 'go');
    return w.store;
  },
  'running root, no steering': () => running().store,
  'running root, steering advertised': () => running(true).store,
  'root awaiting the user (permission pending)': () => {
    const w = running();
    w.agentRequest('session/request_permission', { sessionId: 'R', ...PERMISSION });
    return w.store;
  },
  'root being cancelled': () => running().cancel('R').store,
  'turn the agent started itself, no steering': () => {
    const w = opened();
    w.prompt('R', 'go')('end_turn');
    return w.update('R', text('agent_message_chunk', 'A background task finished.')).store;
  },
  'turn the agent started itself, steering advertised': () => {
    const w = opened(true);
    w.prompt('R', 'go')('end_turn');
    return w.update('R', text('agent_message_chunk', 'A background task finished.')).store;
  },
  'disconnected while running': () => {
    const w = running();
    w.store.markDisconnected();
    return w.store;
  },
  'closed root': () => opened().clientRequest('session/close', { sessionId: 'R' }, {}).store,
  'announced children: running, awaiting the user, done, no cancel grant': () => withChildren().store,
  'announced children, steering advertised (relays steer)': () => {
    const w = running(true);
    return w.update('R', announce('A', { title: 'Explorer', capabilities: { cancel: {} }, state: { state: 'running' } })).store;
  },
  'announced children whose parent is disconnected': () => {
    const w = withChildren();
    w.store.markDisconnected();
    return w.store;
  },
  'announced child of a closed root': () => {
    const w = opened();
    w.prompt('R', 'go')('end_turn');
    w.update('R', announce('A', { title: 'Explorer', capabilities: { cancel: {} }, state: { state: 'idle', stopReason: 'end_turn' } }));
    return w.clientRequest('session/close', { sessionId: 'R' }, {}).store;
  },
  'virtual child running (Claude parentToolUseId)': () => withVirtualChild().store,
  'virtual child ended': () => withVirtualChild().update('R', { sessionUpdate: 'tool_call_update', toolCallId: 'task1', status: 'completed' }).store,
  'opencode background task: agent-started root, the child ended by it (written)': () => replayFixture('written', 'opencode-background-task.jsonl').store,
  'opencode background task: the prompt ended, the child works on in the background (written)': () =>
    replayUntil('written', 'opencode-background-task.jsonl', (store) => store.listSessions().some((s) => s.parentId === null && s.state.stopReason === 'end_turn')),
  'finished opencode task with a session of its own (recorded)': () => replayFixture('recorded-new', 'opencode-single.jsonl').store,
  'opencode subagent loaded as a session of its own: takes prompts, not settings (recorded)': () => replayFixture('recorded-new', 'opencode-load-child.jsonl').store,
};

/** Opens a session's own chat from the store, as the host does on `ready`. */
async function openChat(store: SessionStore, sessionId: string): Promise<ChatPage> {
  const chat = await harness().openChat();
  await FeedLink.showing(chat, store, sessionId);
  return chat;
}

/** Names the case in a failure: scene, session, and the verdict's phase and route. */
function where(scene: string, session: { readonly label: string }, verdict: SessionActions): string {
  return `${scene}: ${session.label} (${verdict.phase}, ${verdict.send.route})`;
}

describe('controls matrix: every view gives the controller\'s verdict', () => {
  for (const [scene, build] of Object.entries(SCENES)) {
    test(scene, async () => {
      const store = build();
      for (const session of store.listSessions()) {
        const verdict = store.actionsFor(session.id);
        assert.deepEqual(hostShows(store, session.id), hostExpected(verdict), `${where(scene, session, verdict)}: tree, palette and API`);
        // One page at a time (several open pages with spinning icons slow headless Chromium down a lot).
        const chat = await openChat(store, session.id);
        try {
          assert.deepEqual(await chatShows(chat), chatExpected(verdict, session), `${where(scene, session, verdict)}: its own chat`);
          for (const childId of session.childIds) {
            const child = store.getSession(childId)!;
            const childVerdict = store.actionsFor(childId);
            assert.deepEqual(await cardShows(chat, childId), cardExpected(childVerdict), `${where(scene, child, childVerdict)}: its card in the parent's chat`);
          }
          assert.deepEqual(chat.pageErrors, []);
        } finally {
          await chat.close();
        }
      }
    });
  }

  test('the scenes reach every phase, every route and both answers of every action', () => {
    const seen = new Set<string>();
    for (const build of Object.values(SCENES)) {
      const store = build();
      for (const session of store.listSessions()) {
        const verdict = store.actionsFor(session.id);
        seen.add(`phase:${verdict.phase}`);
        seen.add(`route:${verdict.send.route}`);
        for (const action of ['cancel', 'prompt', 'steer', 'queue', 'relay', 'close', 'changeSetting', 'openSubagent'] as const) seen.add(`${action}:${verdict[action].allowed}`);
      }
    }
    const phases = ['idle', 'starting', 'running', 'awaiting-user', 'cancelling', 'agent-started', 'background', 'disconnected', 'closed'];
    const routes = ['prompt', 'steer', 'queue', 'relay', 'refuse'];
    const actions = ['cancel', 'prompt', 'steer', 'queue', 'relay', 'close', 'changeSetting', 'openSubagent'].flatMap((a) => [`${a}:true`, `${a}:false`]);
    const missing = [...phases.map((p) => `phase:${p}`), ...routes.map((r) => `route:${r}`), ...actions].filter((key) => !seen.has(key));
    assert.deepEqual(missing, []);
  });
});
