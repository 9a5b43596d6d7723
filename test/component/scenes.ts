// Transcripts used by the component tests and screenshots: wire messages fed to a real SessionStore
// (wireScenes.ts), so the webview sees what the store makes of them, action rules included.
import type { WorkspaceRoots } from '../../src/protocol/webviewMessages';
import { SceneWire } from './wireScenes';

export const ROOT = 'sess_root';
export const CHILD_A = 'sess_child_a';
export const CHILD_B = 'sess_child_b';
export const GRANDCHILD = 'sess_grandchild';

/** The JSON-RPC id of the permission request withPendingPermission asks. */
export const PERMISSION_REQUEST_ID = 7;

/** The planId of the root's plan (ACP v2 `plan_update`), for tests that remove it. */
export const ROOT_PLAN_ID = 'plan1';

/** A root the client opened and prompted with `words`: its turn is running. */
export function runningRoot(title: string, words = 'keep going'): SceneWire {
  const w = new SceneWire().root(ROOT, title);
  w.prompt(ROOT, words);
  return w;
}

/** A parent that ran tools, two parallel subagents (one with a grandchild), messages between sessions. */
export function parentWithChildren(): SceneWire {
  const w = new SceneWire();
  w.root(ROOT, 'Fix the failing tests');
  w.prompt(ROOT, 'Please fix the failing tests in `src/parser`.');
  w.say(ROOT, 'thought', 'The parser tests fail since the tokenizer change.', 't1');
  w.say(ROOT, 'agent', 'I will look at the **tokenizer** first:\n\n```ts\nexport function tokenize(s: string) {}\n```\n\nSee [the docs](https://example.com/docs).', 'm2');
  w.plan(ROOT, [
    { content: 'Find the failing test', status: 'completed', priority: 'high' },
    { content: 'Fix the tokenizer', status: 'in_progress', priority: 'medium' },
    { content: 'Run the suite', status: 'pending', priority: 'low' },
  ], ROOT_PLAN_ID);
  w.toolCall(ROOT, 'read1', {
    title: 'Read src/parser/tokenizer.ts',
    kind: 'read',
    status: 'completed',
    locations: [{ path: '/repo/src/parser/tokenizer.ts', line: 42 }],
    rawInput: { path: '/repo/src/parser/tokenizer.ts' },
  });
  w.toolCall(ROOT, 'edit1', {
    title: 'Edit tokenizer.ts',
    kind: 'edit',
    status: 'completed',
    content: [{ type: 'diff', path: '/repo/src/parser/tokenizer.ts', oldText: 'a\nb\nc\n', newText: 'a\nB\nc\nd\n' }],
  });
  w.toolCall(ROOT, 'exec1', { title: 'npm test', kind: 'execute', status: 'in_progress', content: [{ type: 'terminal', terminalId: 'term1' }] });
  w.terminal(ROOT, 'term1', {
    command: 'npm test',
    output: '\x1b[32mPASS\x1b[0m src/lexer.test.ts\n\x1b[1;31mFAIL\x1b[0m src/parser.test.ts\n\x1b[38;5;208mwarn\x1b[0m 2 snapshots obsolete\n',
  });
  w.child(ROOT, CHILD_A, { title: 'Test investigator', description: 'Finds the cause' });
  // Zed's dialect: the launching call names its subagent's session in `_meta`.
  w.toolCall(ROOT, 'task2', { title: 'Task: update snapshots', kind: 'other', status: 'in_progress', _meta: { subagent_session_info: { session_id: CHILD_B }, subagentType: 'general' } });
  // The call's title named it; the announcement clears that, so its label falls back to the description.
  w.child(ROOT, CHILD_B, { title: null, description: 'Updates the snapshots' });
  // B ended a first turn (its usage) and started another; the agent reports what it cost so far.
  w.state(CHILD_B, { state: 'idle', stopReason: 'end_turn', usage: { totalTokens: 1234 }, _meta: { quota: { model_usage: [{ model: 'gpt-5.4' }] } } });
  w.update(CHILD_B, { sessionUpdate: 'usage_update', used: 1234, size: 200_000, cost: { amount: 0.02, currency: 'USD' } });
  w.state(CHILD_B, { state: 'running' });
  w.sessionMessage(ROOT, 'sm1', { senderSessionId: ROOT, recipientSessionId: CHILD_A, text: 'Check the tokenizer edge cases.' });
  w.notice(ROOT, 'warning', 'Context is 80% full');

  w.say(CHILD_A, 'agent', 'Looking at the tokenizer tests.', 'a1');
  w.toolCall(CHILD_A, 'a-grep', { title: 'grep tokenize', kind: 'search', status: 'completed' });
  w.child(CHILD_A, GRANDCHILD, { title: 'Edge case checker' });
  w.say(GRANDCHILD, 'agent', 'Checking empty input.', 'g1');
  w.say(CHILD_B, 'agent', 'Updating 3 snapshots.', 'b1');
  return w;
}

/** The agent asks whether it may run `rm -rf build` (allow once, always, reject). */
export function withPendingPermission(w: SceneWire, sessionId: string, toolCall: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): SceneWire {
  return w.askPermission(
    sessionId,
    PERMISSION_REQUEST_ID,
    { toolCallId: 'clean1', title: 'Clean the build', kind: 'execute', rawInput: { command: ['sh', '-c', 'rm -rf build'] }, ...toolCall },
    [
      { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
      { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
    ],
    extra,
  );
}

/** The workspace pathsScene's paths are in (as the host sends it), with a home folder for `~/…`. */
export const PATHS_WORKSPACE: WorkspaceRoots = { folders: [{ name: 'repo', path: '/repo' }], home: '/home/ann' };

/** A turn that touched paths every way an agent and a user do. */
export function pathsScene(): SceneWire {
  const w = new SceneWire().root(ROOT, 'Paths');
  w.prompt(ROOT, 'Look at these', [
    { type: 'resource_link', name: 'a b.ts', uri: 'file:///repo/src/a%20b.ts' },
    { type: 'resource', resource: { uri: 'file:///repo/src/sel.ts#L3:5', mimeType: 'text/plain', text: 'selected lines' } },
  ]);
  w.toolCall(ROOT, 'edit1', {
    title: 'Edit /repo/src/app.ts',
    kind: 'edit',
    status: 'completed',
    locations: [{ path: '/repo/src/app.ts', line: 12 }, { path: '/home/ann/notes/todo.md' }],
    content: [{ type: 'diff', path: '/repo/src/app.ts', oldText: 'a\n', newText: 'b\n' }],
  });
  w.say(ROOT, 'agent', 'Changed `/repo/src/app.ts:12`, see [the config](file:///repo/config.json); the route `/api/users` is unchanged.');
  w.endTurn(ROOT);
  return w;
}
