// Transcripts used by the component tests and screenshots, built through the FakeStore.
import type { ChildEntry, MessageEntry, NoticeEntry, PermissionEntry, PlanEntryItem, SessionMessageEntry } from '../../src/store/model';
import { FakeStore } from './fakeStore';

export const ROOT = 'sess_root';
export const CHILD_A = 'sess_child_a';
export const CHILD_B = 'sess_child_b';
export const GRANDCHILD = 'sess_grandchild';

export function message(id: string, role: MessageEntry['role'], text: string): Omit<MessageEntry, 'rev' | 'at'> {
  return { kind: 'message', id, role, text, attachments: [] };
}

/** A parent that ran tools, two parallel subagents (one with a grandchild), messages between sessions. */
export function parentWithChildren(): FakeStore {
  const store = new FakeStore();
  store.addSession(ROOT, { title: 'Fix the failing tests' });
  store.addEntry<MessageEntry>(ROOT, message('m1', 'user', 'Please fix the failing tests in `src/parser`.'));
  store.addEntry<MessageEntry>(ROOT, message('t1', 'thought', 'The parser tests fail since the tokenizer change.'));
  store.addEntry<MessageEntry>(
    ROOT,
    message('m2', 'agent', 'I will look at the **tokenizer** first:\n\n```ts\nexport function tokenize(s: string) {}\n```\n\nSee [the docs](https://example.com/docs).'),
  );
  store.addEntry<PlanEntryItem>(ROOT, {
    kind: 'plan',
    id: 'plan1',
    entries: [
      { content: 'Find the failing test', status: 'completed', priority: 'high' },
      { content: 'Fix the tokenizer', status: 'in_progress', priority: 'medium' },
      { content: 'Run the suite', status: 'pending', priority: 'low' },
    ],
  });
  store.upsertToolCall(ROOT, {
    toolCallId: 'read1',
    title: 'Read src/parser/tokenizer.ts',
    kind: 'read',
    status: 'completed',
    locations: [{ path: '/repo/src/parser/tokenizer.ts', line: 42 }],
    rawInput: { path: '/repo/src/parser/tokenizer.ts' },
  });
  store.upsertToolCall(ROOT, {
    toolCallId: 'edit1',
    title: 'Edit tokenizer.ts',
    kind: 'edit',
    status: 'completed',
    content: [{ type: 'diff', path: '/repo/src/parser/tokenizer.ts', oldText: 'a\nb\nc\n', newText: 'a\nB\nc\nd\n' }],
  });
  store.upsertToolCall(ROOT, {
    toolCallId: 'exec1',
    title: 'npm test',
    kind: 'execute',
    status: 'in_progress',
    content: [{ type: 'terminal', terminalId: 'term1' }],
  });
  store.setTerminal(ROOT, {
    terminalId: 'term1',
    command: 'npm',
    args: ['test'],
    output: '\x1b[32mPASS\x1b[0m src/lexer.test.ts\n\x1b[1;31mFAIL\x1b[0m src/parser.test.ts\n\x1b[38;5;208mwarn\x1b[0m 2 snapshots obsolete\n',
    truncated: false,
    exitStatus: null,
  });
  store.addSession(CHILD_A, { parentId: ROOT, title: 'Test investigator', description: 'Finds the cause', subagentType: 'explore' });
  store.addEntry<ChildEntry>(ROOT, { kind: 'child', id: 'c1', childSessionId: CHILD_A });
  store.upsertToolCall(ROOT, { toolCallId: 'task2', title: 'Task: update snapshots', kind: 'other', status: 'in_progress', childSessionId: CHILD_B });
  store.addSession(CHILD_B, {
    parentId: ROOT,
    description: 'Updates the snapshots',
    subagentType: 'general',
    spend: { totalTokens: 1234, cost: { amount: 0.02, currency: 'USD' }, model: 'gpt-5.4', source: 'copilot-subagent.completed' },
  });
  store.addEntry<SessionMessageEntry>(ROOT, {
    kind: 'sessionMessage',
    id: 'sm1',
    messageId: 'sm1',
    direction: 'outgoing',
    senderSessionId: ROOT,
    recipientSessionId: CHILD_A,
    text: 'Check the tokenizer edge cases.',
    attachments: [],
  });
  store.addEntry<NoticeEntry>(ROOT, { kind: 'notice', id: 'n1', severity: 'warning', title: 'Context is 80% full' });

  store.addEntry<MessageEntry>(CHILD_A, message('a1', 'agent', 'Looking at the tokenizer tests.'));
  store.upsertToolCall(CHILD_A, { toolCallId: 'a-grep', title: 'grep tokenize', kind: 'search', status: 'completed' });
  store.addSession(GRANDCHILD, { parentId: CHILD_A, title: 'Edge case checker' });
  store.addEntry<ChildEntry>(CHILD_A, { kind: 'child', id: 'a-c1', childSessionId: GRANDCHILD });
  store.addEntry<MessageEntry>(GRANDCHILD, message('g1', 'agent', 'Checking empty input.'));
  store.addEntry<MessageEntry>(CHILD_B, message('b1', 'agent', 'Updating 3 snapshots.'));
  return store;
}

export function withPendingPermission(store: FakeStore, sessionId: string): PermissionEntry {
  return store.addEntry<PermissionEntry>(sessionId, {
    kind: 'permission',
    id: 'perm1',
    requestId: '7',
    toolCallId: 'exec1',
    title: 'Clean the build',
    toolKind: 'execute',
    command: ['sh', '-c', 'rm -rf build'],
    options: [
      { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
      { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
    ],
    outcome: 'pending',
  });
}
