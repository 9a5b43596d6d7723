// The owner resolver: which session an update belongs to, one table per dialect fixture, plus its rules
// on a fake lookup. Rows list the update lines that do NOT stay on the session id they were sent on:
// `virtual:<id>` = a child reconstructed from parent tool call <id>; `owner:<id>` = an unmarked update of a
// tool call that a child (reconstructed from parent call <id>) already owns. Every other update stays put.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveRequestOwner, resolveUpdateOwner, type OwnerLookup } from '../../src/store/updateOwner';
import { SessionStore } from '../../src/store/sessionStore';
import { fixtureNames, fixtureText, type FixtureFolder } from './support/storeFixtures';
import { parseTranscriptLine } from '../../src/store/wireMessage';

const range = (from: number, to: number, kind: string): Record<number, string> =>
  Object.fromEntries(Array.from({ length: to - from + 1 }, (_, i) => [from + i, kind]));

const CLAUDE_SAMPLE = 'toolu_01Ag3ntLaunchXyZ789AbCdEf';
const QWEN_SAMPLE = 'call_7f3a9c2e1b4d4e6f';
const QWEN_SINGLE = 'call_mx2lrh84_2';

const TABLES: Record<string, Record<string, Record<number, string>>> = {
  dialects: {
    'acp-pr855-kind-subagent.jsonl': {},
    'acp-rfd-subagent-update.jsonl': {},
    'agentpool-qwen-legacy.jsonl': {},
    'claude-agent-acp-parentToolUseId.jsonl': { 3: `virtual:${CLAUDE_SAMPLE}`, 4: `owner:${CLAUDE_SAMPLE}`, 5: `virtual:${CLAUDE_SAMPLE}`, 6: `virtual:${CLAUDE_SAMPLE}`, 7: `virtual:${CLAUDE_SAMPLE}` },
    'claude-code-acp-0.16.2.jsonl': {},
    'codex-acp-2.6.0-legacy-collab.jsonl': {},
    'gemini-cli-0.61.0.jsonl': {},
    'jetbrains-air-subagent-spawned.jsonl': {},
    'opencode-1.18.33.jsonl': {},
    'qwen-code-0.24.4.jsonl': range(4, 7, `virtual:${QWEN_SAMPLE}`),
    'zed-subagent-session-info.jsonl': {},
    'cursor-agent-task.jsonl': {},
    'devin-acp-subagents.jsonl': { ...range(10, 13, 'virtual:a0ac9364'), ...range(17, 18, 'virtual:b71e0d52') },
    'omp-acp-agents.jsonl': {},
    'sudocode-subagent-events.jsonl': { ...range(8, 10, 'virtual:toolu_01SpawnTokFind00000001'), 13: 'virtual:toolu_01SpawnTokFind00000001' },
  },
  traces: {
    'claude-single.jsonl': { 12: 'virtual:toolu_fakemx2lp7ag0001', 13: 'owner:toolu_fakemx2lp7ag0001', 14: 'virtual:toolu_fakemx2lp7ag0001' },
    'claude-permission.jsonl': { 12: 'virtual:toolu_fakemx2lpw3j0001', 15: 'owner:toolu_fakemx2lpw3j0001', 16: 'virtual:toolu_fakemx2lpw3j0001' },
    'claude2-single-nocap.jsonl': range(18, 20, 'virtual:toolu_fakemx2m2zeh0003'),
    'claude2-single.jsonl': {},
    'codex-single.jsonl': {},
    'qwen-cancel.jsonl': { 15: 'virtual:call_mx2ls3q8_2', 17: 'virtual:call_mx2ls3q8_2', ...range(21, 24, 'virtual:call_mx2ls3q8_2') },
    'qwen-single.jsonl': {
      ...range(16, 19, `virtual:${QWEN_SINGLE}`),
      21: `virtual:${QWEN_SINGLE}`,
      24: `virtual:${QWEN_SINGLE}`,
      25: `virtual:${QWEN_SINGLE}`,
      27: `virtual:${QWEN_SINGLE}`,
      30: `virtual:${QWEN_SINGLE}`,
      31: `virtual:${QWEN_SINGLE}`,
      33: `virtual:${QWEN_SINGLE}`,
      ...range(37, 41, `virtual:${QWEN_SINGLE}`),
    },
  },
};

test('every dialect sample has an owner table', () => {
  assert.deepEqual(fixtureNames('dialects'), Object.keys(TABLES['dialects']!).sort());
});

for (const [folder, tables] of Object.entries(TABLES)) {
  for (const [name, expected] of Object.entries(tables)) {
    test(`owners in ${folder}/${name}`, () => {
      const moved: Record<number, string> = {};
      const store = new SessionStore({ now: () => 0 });
      fixtureText(folder as FixtureFolder, name)
        .split('\n')
        .forEach((text, i) => {
          // The decision for a line is taken on the store as it stands before that line.
          const message = text.trim() ? (parseTranscriptLine(text)?.message as { method?: string; params?: Record<string, unknown> }) : undefined;
          const kind = String((message?.params?.['update'] as { sessionUpdate?: unknown } | undefined)?.sessionUpdate);
          const owner = message?.method === 'session/update' && message.params && !kind.startsWith('subagent') ? store.ownerOfUpdate(message.params) : undefined;
          if (owner?.kind === 'virtual') moved[i + 1] = `virtual:${owner.toolCallId}`;
          else if (owner && owner.sessionId !== message?.params?.['sessionId']) moved[i + 1] = `owner:${owner.sessionId.split('#').at(-1)}`;
          store.ingestLine(text, i + 1);
        });
      assert.deepEqual(moved, expected);
    });
  }
}

const lookup = (owners: Record<string, string>): OwnerLookup => ({ toolOwner: (wire, id) => owners[`${wire}/${id}`] });
const root = { id: 'R', origin: 'root' as const };

test('rules: a marker names the parent call, its owner hosts the child; unmarked updates follow the call owner', () => {
  const owners = lookup({ 'R/agent1': 'R', 'R/read1': 'R#agent1' });
  assert.deepEqual(resolveUpdateOwner(root, { toolCallId: 'read1', _meta: { claudeCode: { parentToolUseId: 'agent1' } } }, owners), {
    kind: 'virtual',
    parentId: 'R',
    toolCallId: 'agent1',
    link: 'claude-meta',
  });
  assert.deepEqual(resolveUpdateOwner(root, { toolCallId: 'read1' }, owners), { kind: 'session', sessionId: 'R#agent1' }, 'the hook echo without a marker');
  assert.deepEqual(resolveUpdateOwner(root, { toolCallId: 'x', _meta: { parentToolCallId: 'x' } }, owners), { kind: 'session', sessionId: 'R' }, 'self-reference guard');
  assert.deepEqual(
    resolveUpdateOwner(root, { _meta: { parentToolCallId: 'ghost', subagentType: 'general' } }, owners),
    { kind: 'virtual', parentId: 'R', toolCallId: 'ghost', link: 'qwen-meta', subagentType: 'general', unknownParentCall: true },
    'a call never seen: still a child, and said so',
  );
  assert.deepEqual(
    resolveUpdateOwner({ id: 'C', origin: 'announced' }, { _meta: { claudeCode: { parentToolUseId: 'elsewhere' } } }, owners),
    { kind: 'session', sessionId: 'C' },
    'on an announced child the marker only echoes its parent call',
  );
  assert.deepEqual(resolveRequestOwner(root, { toolCallId: 'read1' }, owners), { kind: 'session', sessionId: 'R#agent1' }, 'a permission goes to whoever owns its call');
});
