// The chat panel's handler table (src/webviews/chatRequests.ts): one handler per webview message type, each
// re-checking against the store, and an answer posted back for the requests the host may refuse, so the chat
// shows the reason where the user asked; a notification says it only when the webview did not take the answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { webviewToHostGuards } from '../../src/protocol/messageGuards';
import type { ActionPermission, SessionActions } from '../../src/protocol/transcript';
import type { HostToWebviewMessage, WebviewToHostMessage } from '../../src/protocol/webviewMessages';
import type { SessionStoreReader } from '../../src/store/storeAccess';
import { handleRequest, requestHandlers, type ChatWorkbench, type RequestContext } from '../../src/webviews/chatRequests';

const ALLOWED: ActionPermission = { allowed: true };
const ENDED: ActionPermission = { allowed: false, reason: 'The turn has already ended.' };

interface Fixture {
  readonly context: RequestContext;
  readonly posted: HostToWebviewMessage[];
  readonly warnings: string[];
  readonly calls: string[];
}

/** A panel on session `root` (child `kid`) whose store answers with `actions`; `taken`: whether the webview takes posts. */
function fixture(actions: Partial<SessionActions>, options: { taken?: boolean; turn?: Promise<unknown> } = {}): Fixture {
  const posted: HostToWebviewMessage[] = [];
  const warnings: string[] = [];
  const calls: string[] = [];
  const sessions: Record<string, { id: string; parentId: string | null; label: string; entries: unknown[]; toolCalls: object }> = {
    root: {
      id: 'root',
      parentId: null,
      label: 'Root',
      entries: [
        { kind: 'message', id: 'u1', role: 'user', at: 42, text: 'hi', attachments: [{ type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' }] },
        { kind: 'message', id: 'a1', role: 'agent', at: 43, text: 'hello', attachments: [] },
      ],
      toolCalls: {},
    },
    kid: {
      id: 'kid',
      parentId: 'root',
      label: 'Kid',
      entries: [{ kind: 'permission', id: 'e1', requestId: 'p1', outcome: 'allowed', options: [{ optionId: 'ok' }] }],
      toolCalls: {},
    },
    other: { id: 'other', parentId: null, label: 'Other', entries: [], toolCalls: {} },
  };
  const store = {
    getSession: (id: string) => sessions[id],
    actionsFor: () => ({ cancel: ALLOWED, openSubagent: ALLOWED, prompt: ALLOWED, send: { route: 'prompt', reason: '' }, ...actions }),
    itemActionsFor: () => ({ cancel: actions.cancel ?? ALLOWED }),
    promptCapabilities: () => ({}),
    effectiveCwd: () => '/work',
  } as unknown as SessionStoreReader;
  const workbench = new Proxy({} as ChatWorkbench, {
    get: (_target, name: string) =>
      name === 'warn'
        ? (text: string) => warnings.push(text)
        : async (...args: unknown[]) => {
            calls.push(`${name} ${JSON.stringify(args)}`);
          },
  });
  const context: RequestContext = {
    connectionId: 'c1',
    rootSessionId: 'root',
    store,
    sessions: {
      get: () => ({ store }),
      send: async (_c, sessionId, content) => {
        calls.push(`send ${sessionId} ${JSON.stringify(content)}`);
        return options.turn ? { turn: options.turn } : {};
      },
      unqueue: () => true,
      cancel: async (_c, sessionId) => void calls.push(`cancel ${sessionId}`),
      cancelItem: async (_c, sessionId, item) => void calls.push(`cancelItem ${sessionId} ${JSON.stringify(item)}`),
      onDidChangeRuntimes: () => ({ dispose: () => undefined }),
    },
    permissions: { answer: () => false },
    workbench,
    pipe: {
      ready: () => calls.push('ready'),
      pageLoadFailed: (asset) => void calls.push(`pageLoadFailed ${asset}`),
      resync: () => calls.push('resync'),
      ack: (rev) => void calls.push(`ack ${rev}`),
      post: (message) => {
        posted.push(message);
        return Promise.resolve(options.taken ?? true);
      },
    },
  };
  return { context, posted, warnings, calls };
}

async function settle(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
}

test('the table has one handler for every message a webview may post', () => {
  assert.deepEqual(Object.keys(requestHandlers).sort(), Object.keys(webviewToHostGuards).sort());
});

test('a refused cancel is answered with the store\'s reason, and nothing is cancelled or notified', async () => {
  const { context, posted, warnings, calls } = fixture({ cancel: ENDED });
  await handleRequest({ type: 'cancel', sessionId: 'kid' }, context);
  await settle();
  assert.deepEqual(posted, [{ type: 'requestOutcome', request: 'cancel', sessionId: 'kid', refused: 'The turn has already ended.' }]);
  assert.deepEqual(calls, []);
  assert.deepEqual(warnings, []);
});

test('a refusal the webview does not take becomes a notification, as before', async () => {
  const { context, warnings } = fixture({ cancel: ENDED }, { taken: false });
  await handleRequest({ type: 'cancel', sessionId: 'kid' }, context);
  await settle();
  assert.deepEqual(warnings, ['Subchats: cannot cancel "Kid". The turn has already ended.']);
});

test('an allowed cancel runs and is answered as done (no reason)', async () => {
  const { context, posted, calls } = fixture({});
  await handleRequest({ type: 'cancel', sessionId: 'root' }, context);
  assert.deepEqual(calls, ['cancel root']);
  assert.deepEqual(posted, [{ type: 'requestOutcome', request: 'cancel', sessionId: 'root' }]);
});

test('a session outside the panel is refused, whatever its verdict', async () => {
  const { context, posted, calls } = fixture({});
  await handleRequest({ type: 'openSubagentSession', sessionId: 'other' }, context);
  assert.deepEqual(calls, []);
  assert.deepEqual(posted, [{ type: 'requestOutcome', request: 'openSubagentSession', sessionId: 'other', refused: 'The session is not part of this chat.' }]);
});

test('earlier text asked for a session outside the panel (removed meanwhile) is answered with why, so the note does not wait for good', async () => {
  const { context, posted } = fixture({});
  await handleRequest({ type: 'loadEarlier', sessionId: 'other', entryId: 'a1', end: 100 }, context);
  assert.deepEqual(posted, [{ type: 'earlierText', sessionId: 'other', entryId: 'a1', end: 100, problem: 'The session is not part of this chat.' }]);
});

test('a message the verdict refuses is answered with its reason and not sent', async () => {
  const { context, posted, calls } = fixture({ send: { route: 'refuse', reason: 'The agent connection ended.' } } as Partial<SessionActions>);
  await handleRequest({ type: 'prompt', sessionId: 'root', text: 'hi' }, context);
  assert.deepEqual(calls, []);
  assert.deepEqual(posted, [{ type: 'requestOutcome', request: 'prompt', sessionId: 'root', refused: 'The agent connection ended.' }]);
});

test('a sent message is answered once it is sent, before its turn ends; the request settles with the turn', async () => {
  let endTurn!: () => void;
  const turn = new Promise<void>((resolve) => (endTurn = resolve));
  const { context, posted, calls } = fixture({}, { turn });
  let settled = false;
  const handled = handleRequest({ type: 'prompt', sessionId: 'root', text: 'hi' }, context).then(() => (settled = true));
  await settle();
  assert.deepEqual(calls, ['send root [{"type":"text","text":"hi"}]']);
  assert.deepEqual(posted, [{ type: 'requestOutcome', request: 'prompt', sessionId: 'root' }]);
  assert.equal(settled, false, 'a failure of the turn still reaches the panel');
  endTurn();
  await handled;
});

test('item cancels and permission answers name their item in the answer', async () => {
  const { context, posted } = fixture({ cancel: ENDED });
  await handleRequest({ type: 'cancelToolCall', sessionId: 'kid', toolCallId: 't1' }, context);
  await handleRequest({ type: 'answerPermission', sessionId: 'kid', requestId: 'p1', optionId: 'ok' }, context);
  assert.deepEqual(posted, [
    { type: 'requestOutcome', request: 'cancelToolCall', sessionId: 'kid', target: 't1', refused: 'The turn has already ended.' },
    { type: 'requestOutcome', request: 'answerPermission', sessionId: 'kid', target: 'p1', refused: 'This permission request is no longer pending.' },
  ]);
});

test('requests that cannot be refused get no answer; pipe messages go to the pipe', async () => {
  const { context, posted, calls } = fixture({});
  const messages: WebviewToHostMessage[] = [
    { type: 'copy', text: 'x' },
    { type: 'ack', rev: 3 },
    { type: 'resync', knownRev: 2, reason: 'gap' },
  ];
  for (const message of messages) await handleRequest(message, context);
  assert.deepEqual(posted, []);
  assert.deepEqual(calls, ['copy ["x"]', 'ack 3', 'resync']);
});

test('code block actions go to the workbench; Apply resolves the file from the chat\'s working directory', async () => {
  const { context, posted, calls } = fixture({});
  await handleRequest({ type: 'codeBlock', action: 'insert', code: 'a' }, context);
  await handleRequest({ type: 'codeBlock', action: 'terminal', code: 'b' }, context);
  await handleRequest({ type: 'codeBlock', action: 'apply', code: 'c', path: 'src/c.ts' }, context);
  assert.deepEqual(calls, ['insertAtCursor ["a"]', 'insertIntoTerminal ["b"]', 'applyToFile ["src/c.ts","c","/work"]']);
  assert.deepEqual(posted, []);
});

test('Retry sends the user\'s message again as it was, words and attachments, marked as a retry of it', async () => {
  const { context, posted, calls } = fixture({});
  await handleRequest({ type: 'retry', sessionId: 'root', entryId: 'u1' }, context);
  assert.deepEqual(calls, [
    'send root [{"type":"text","text":"hi","_meta":{"subchats/resend":{"how":"retry","of":{"at":42,"entryId":"u1"}}}},{"type":"resource_link","uri":"file:///w/a.ts","name":"a.ts"}]',
  ]);
  assert.deepEqual(posted, [{ type: 'requestOutcome', request: 'retry', sessionId: 'root', target: 'u1' }]);
});

test('Retry of an agent\'s message, an unknown one, or one the verdict refuses is answered with why, and nothing is sent', async () => {
  const { context, posted, calls } = fixture({});
  await handleRequest({ type: 'retry', sessionId: 'root', entryId: 'a1' }, context);
  await handleRequest({ type: 'retry', sessionId: 'other', entryId: 'u1' }, context);
  const refused = fixture({ send: { route: 'refuse', reason: 'The agent connection ended.' } } as Partial<SessionActions>);
  await handleRequest({ type: 'retry', sessionId: 'root', entryId: 'u1' }, refused.context);
  assert.deepEqual(calls, []);
  assert.deepEqual(refused.calls, []);
  assert.deepEqual(
    [...posted, ...refused.posted].map((m) => m.type === 'requestOutcome' && m.refused),
    ['This message cannot be sent again from here.', 'This message cannot be sent again from here.', 'The agent connection ended.'],
  );
});

test('an edited message is marked as an edit of the message it names; a name that is not the user\'s message sends it unmarked', async () => {
  const { context, calls } = fixture({});
  await handleRequest({ type: 'prompt', sessionId: 'root', text: 'hi there', resendOf: { sessionId: 'root', entryId: 'u1' } }, context);
  await handleRequest({ type: 'prompt', sessionId: 'root', text: 'hey', resendOf: { sessionId: 'root', entryId: 'a1' } }, context);
  assert.deepEqual(calls, [
    'send root [{"type":"text","text":"hi there","_meta":{"subchats/resend":{"how":"edit","of":{"at":42,"entryId":"u1"}}}}]',
    'send root [{"type":"text","text":"hey"}]',
  ]);
});
