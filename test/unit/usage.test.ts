// What every subagent costs (#24): the usage each agent reports, read per session from the wire; its words;
// and a subtree's usage that never counts a report twice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { costText, subtreeUsage, subtreeUsageLines, usageText, type UsageNode } from '../../src/presentation';
import type { SessionUsage } from '../../src/protocol/usage';
import { mergeUsage, readTaskResultUsage, readTurnUsage, withReport } from '../../src/store/usage';
import { sessionItemOf } from '../../src/views/sessionTreeModel';
import { sessionHeader } from '../../src/webviews/chatProjection';
import { announce, fixtureText, replayFixture, Wire, type FixtureFolder } from './support/storeFixtures';

function usageOf(folder: FixtureFolder, name: string): { label: string; link: string; usage: unknown }[] {
  return replayFixture(folder, name).snapshot.sessions.map((s) => ({ label: s.label, link: s.link, usage: s.usage ?? null }));
}

/** The one fixture line that contains all of `needles` (so each test names the line its numbers come from). */
function lineWith(folder: FixtureFolder, name: string, ...needles: string[]): string {
  const lines = fixtureText(folder, name).split('\n').filter((line) => needles.every((needle) => line.includes(needle)));
  assert.equal(lines.length, 1, `one line of ${name} has ${needles.join(', ')}`);
  return lines[0]!;
}

test('claude-single: the root prompt result says 240 tokens, usage_update 0.0024 USD; the subagent’s Agent result 120 tokens', () => {
  // Line 26: {"stopReason":"end_turn","usage":{"inputTokens":200,"outputTokens":40,"cachedReadTokens":0,…,"totalTokens":240}}
  lineWith('traces', 'claude-single.jsonl', '"id":2,"result"', '"totalTokens":240');
  // Line 25: usage_update used 101, size 200000, cost {amount 0.0024…, currency USD}
  lineWith('traces', 'claude-single.jsonl', '"usage_update","used":101,"size":200000,"cost":{"amount":0.0024000000000000002,"currency":"USD"}');
  // Line 15: _meta.claudeCode.toolResponse totalTokens 120, usage input_tokens 100 / output_tokens 20; line 16: <usage>total_tokens: 120
  lineWith('traces', 'claude-single.jsonl', '"totalTokens":120', '"input_tokens":100', '"output_tokens":20');
  lineWith('traces', 'claude-single.jsonl', '<usage>total_tokens: 120\\ntool_uses: 1\\nduration_ms: 533</usage>', '"status":"completed"');
  const [root, child] = usageOf('traces', 'claude-single.jsonl');
  assert.deepEqual(root!.usage, {
    totalTokens: 240,
    inputTokens: 200,
    outputTokens: 40,
    cachedReadTokens: 0,
    cost: { amount: 0.0024000000000000002, currency: 'USD' },
    contextUsed: 101,
    contextSize: 200000,
    source: 'prompt-result + usage_update',
  });
  assert.equal(child!.link, 'claude-meta');
  assert.deepEqual(child!.usage, { totalTokens: 120, inputTokens: 100, outputTokens: 20, cachedReadTokens: 0, source: 'claude-task-result' });
});

test('the <usage> tag alone gives the subagent’s tokens (total_tokens, or subagent_tokens in newer Claude adapters)', () => {
  const line = JSON.parse(lineWith('traces', 'claude-single.jsonl', '<usage>total_tokens: 120', '"status":"completed"')) as { msg: { params: { update: Record<string, unknown> } } };
  assert.deepEqual(readTaskResultUsage(line.msg.params.update), { source: 'claude-task-result', totalTokens: 120 });
  const text = 'agentId: a1\n<usage>subagent_tokens: 120\ntool_uses: 1\nduration_ms: 931</usage>';
  assert.deepEqual(readTaskResultUsage({ rawOutput: [{ type: 'text', text }] }), { source: 'claude-task-result', totalTokens: 120 });
  assert.equal(readTaskResultUsage({ rawOutput: [{ type: 'text', text: 'no usage here' }] }), undefined);
});

test('claude2 without the subagent capability: the child ran on toolResponse.resolvedModel; the root’s model from usage_update _meta', () => {
  lineWith('traces', 'claude2-single-nocap.jsonl', '"resolvedModel":"claude-opus-5-5"', '"totalTokens":120');
  const [root, child] = usageOf('traces', 'claude2-single-nocap.jsonl');
  assert.deepEqual(child!.usage, { totalTokens: 120, inputTokens: 100, outputTokens: 20, cachedReadTokens: 0, model: 'claude-opus-5-5', source: 'claude-task-result' });
  // The prompt result's model_usage adds up the subagent's calls too (600 tokens): its counts are not taken.
  lineWith('traces', 'claude2-single-nocap.jsonl', '"totalTokens":240', '"model_usage":[{"model":"claude-opus-5-5","token_count":{"totalTokens":600');
  assert.deepEqual(root!.usage, {
    totalTokens: 240,
    inputTokens: 200,
    outputTokens: 40,
    cachedReadTokens: 0,
    cost: { amount: 0.004, currency: 'USD' },
    model: 'claude-opus-5-5',
    contextUsed: 120,
    contextSize: 1000000,
    source: 'prompt-result + usage_update',
  });
});

test('claude2 v2: the idle state_update carries the turn’s usage', () => {
  lineWith('traces', 'claude2-v2-single.jsonl', '"state_update","state":"idle"', '"totalTokens":240');
  const [root] = usageOf('traces', 'claude2-v2-single.jsonl');
  assert.equal((root!.usage as SessionUsage).totalTokens, 240);
  assert.equal((root!.usage as SessionUsage).source, 'state_update + usage_update');
});

test('codex: the prompt result’s 360 tokens and its model from _meta.quota.model_usage; the child its own context only', () => {
  lineWith('traces', 'codex-single.jsonl', '"usage":{"totalTokens":360,"inputTokens":300', '"model":"gpt-5.2-codex"');
  const [root, child] = usageOf('traces', 'codex-single.jsonl');
  assert.deepEqual(root!.usage, { totalTokens: 360, inputTokens: 300, outputTokens: 60, cachedReadTokens: 0, model: 'gpt-5.2-codex', contextUsed: 120, contextSize: 258400, source: 'prompt-result + usage_update' });
  assert.deepEqual(child!.usage, { contextUsed: 120, contextSize: 258400, source: 'usage_update' });
});

test('Copilot: subagent.completed gives each child its totalTokens and model; the root its prompt result', () => {
  lineWith('recorded-new', 'copilot-single-events.jsonl', '"subagent.completed","timestamp"', '"model":"gpt-5.4"', '"totalTokens":280');
  const [root, child] = usageOf('recorded-new', 'copilot-single-events.jsonl');
  assert.deepEqual(child!.usage, { totalTokens: 280, model: 'gpt-5.4', source: 'copilot-subagent.completed' });
  assert.deepEqual(root!.usage, { totalTokens: 560, inputTokens: 480, outputTokens: 80, cachedReadTokens: 0, contextUsed: 9578, contextSize: 922000, source: 'prompt-result + usage_update' });
  const parallel = usageOf('recorded-new', 'copilot-parallel-events.jsonl');
  assert.deepEqual(
    parallel.slice(1).map((s) => s.usage),
    [
      { totalTokens: 420, model: 'gpt-5.4', source: 'copilot-subagent.completed' },
      { totalTokens: 420, model: 'gpt-5.4', source: 'copilot-subagent.completed' },
    ],
  );
});

test('Copilot assistant.usage: each model call’s tokens add up on whoever made it', () => {
  const w = new Wire().newSession('P');
  w.prompt('P', 'go');
  w.update('P', { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'task', kind: 'other', status: 'in_progress', rawInput: { prompt: 'look', agent_type: 'explore' } });
  const event = (data: Record<string, unknown>, agentId?: string) =>
    w.store.ingest({ jsonrpc: '2.0', method: 'github.com/copilot/sessionEvent', params: { sessionId: 'P', type: 'assistant.usage', data, ...(agentId ? { agentId } : {}) } }, 'agent->client');
  w.store.ingest({ jsonrpc: '2.0', method: 'github.com/copilot/sessionEvent', params: { sessionId: 'P', type: 'subagent.started', agentId: 'a1', data: { toolCallId: 't1' } } }, 'agent->client');
  event({ model: 'gpt-5.4', inputTokens: 100, outputTokens: 10, cost: 1 }, 'a1');
  event({ model: 'gpt-5.4', inputTokens: 200, outputTokens: 20, cost: 1 }, 'a1');
  event({ model: 'gpt-5', inputTokens: 50, outputTokens: 5 });
  const child = w.session('P').toolCalls['t1']!.childSessionId!;
  assert.deepEqual(w.session(child).spend, { inputTokens: 300, outputTokens: 30, model: 'gpt-5.4', source: 'copilot-assistant.usage' }, 'its `cost` is a premium-request multiplier: not a cost');
  assert.deepEqual(w.session('P').spend, { inputTokens: 50, outputTokens: 5, model: 'gpt-5', source: 'copilot-assistant.usage' });
});

test('opencode: the root’s cost (0 USD) and tokens; the task result names the child’s model; a loaded child keeps it', () => {
  lineWith('recorded-new', 'opencode-single.jsonl', '"usage_update","used":120,"size":128000,"cost":{"amount":0,"currency":"USD"}');
  lineWith('recorded-new', 'opencode-single.jsonl', '"model":{"modelID":"fake-model","providerID":"fake"}');
  const [root, child] = usageOf('recorded-new', 'opencode-single.jsonl');
  assert.deepEqual(root!.usage, { totalTokens: 140, inputTokens: 120, outputTokens: 20, cost: { amount: 0, currency: 'USD' }, contextUsed: 120, contextSize: 128000, source: 'prompt-result + usage_update' });
  assert.deepEqual(child!.usage, { model: 'fake-model', source: 'opencode-task-result' });
  const [, loaded] = usageOf('recorded-new', 'opencode-load-child.jsonl');
  assert.deepEqual(loaded!.usage, {
    totalTokens: 140,
    inputTokens: 120,
    outputTokens: 20,
    cost: { amount: 0, currency: 'USD' },
    model: 'fake-model',
    contextUsed: 120,
    contextSize: 128000,
    source: 'prompt-result + usage_update + opencode-task-result',
  });
});

test('gemini: _meta.quota.token_count (input_tokens/output_tokens) and model_usage’s model; no total is made up', () => {
  lineWith('recorded-new', 'gemini-single.jsonl', '"token_count":{"input_tokens":240,"output_tokens":40}', '"model":"gemini-2.5-flash"');
  const [root] = usageOf('recorded-new', 'gemini-single.jsonl');
  assert.deepEqual(root!.usage, { inputTokens: 240, outputTokens: 40, model: 'gemini-2.5-flash', source: 'prompt-result' });
  assert.equal(usageText(root!.usage as SessionUsage), '240 in / 40 out tokens · gemini-2.5-flash');
});

test('qwen: the task result’s executionSummary is the subagent’s usage', () => {
  lineWith('traces', 'qwen-single.jsonl', '"executionSummary"', '"inputTokens":400,"outputTokens":80', '"totalTokens":480');
  const [, child] = usageOf('traces', 'qwen-single.jsonl');
  assert.deepEqual(child!.usage, { totalTokens: 480, inputTokens: 400, outputTokens: 80, source: 'qwen-task-result' });
});

test('a turn’s usage adds up over turns; usage_update replaces (a later one without a cost keeps the cost)', () => {
  const w = new Wire().newSession('R');
  for (const tokens of [100, 50]) {
    const id = 900 + tokens;
    w.store.ingest({ jsonrpc: '2.0', id, method: 'session/prompt', params: { sessionId: 'R', prompt: [] } }, 'client->agent');
    w.store.ingest({ jsonrpc: '2.0', id, result: { stopReason: 'end_turn', usage: { totalTokens: tokens, inputTokens: tokens - 10, outputTokens: 10 } } }, 'agent->client');
  }
  w.update('R', { sessionUpdate: 'usage_update', used: 10, size: 100, cost: { amount: 0.5, currency: 'EUR' } });
  w.update('R', { sessionUpdate: 'usage_update', used: 20, size: 100 });
  assert.deepEqual(w.session('R').spend, { totalTokens: 150, inputTokens: 130, outputTokens: 20, cost: { amount: 0.5, currency: 'EUR' }, contextUsed: 20, contextSize: 100, source: 'prompt-result + usage_update' });
  assert.equal(w.session('R').usageReports['prompt-result']?.reports, 2);
});

test('an idle state reported twice (the parent’s mirror and the child’s own) counts its turn once', () => {
  const w = new Wire().newSession('P');
  const idle = { state: 'idle', stopReason: 'end_turn', usage: { totalTokens: 70 } };
  w.update('P', announce('C', { state: { state: 'running' } }));
  w.update('P', announce('C', { state: idle }));
  w.update('C', { sessionUpdate: 'state_update', ...idle });
  assert.deepEqual(w.session('C').spend, { totalTokens: 70, source: 'state_update' });
});

test('readers keep only what was reported; merging takes all token counts from one report', () => {
  assert.equal(readTurnUsage({ stopReason: 'end_turn' }, 'prompt-result'), undefined);
  const reports = withReport(withReport({}, { source: 'prompt-result', totalTokens: 10 }), { source: 'claude-task-result', inputTokens: 5 });
  assert.deepEqual(mergeUsage(reports), { inputTokens: 5, source: 'claude-task-result' }, 'not 10 total from one and 5 in from another');
  assert.deepEqual(mergeUsage(reports, 'sonnet'), { inputTokens: 5, model: 'sonnet', source: 'claude-task-result' }, "the dialect's model when no report names one");
  assert.equal(mergeUsage({}, 'sonnet'), null);
});

test('words: tokens, a reported cost as reported, the model; never a price', () => {
  assert.equal(usageText({ totalTokens: 1234, cost: { amount: 0.02, currency: 'USD' }, model: 'gpt-5.4' }), '1,234 tokens · 0.02 USD · gpt-5.4');
  assert.equal(usageText({ totalTokens: 1234 }), '1,234 tokens');
  assert.equal(usageText(null), '');
  assert.equal(costText({ amount: 0.0024000000000000002, currency: 'USD' }), '0.0024 USD');
  assert.equal(costText({ amount: 0, currency: 'USD' }), '0.00 USD');
  assert.equal(costText({ amount: 12.345 }), '12.35');
  assert.equal(costText({ amount: 0.5, currency: 'EUR' }), '0.50 EUR');
});

const node = (usage: Partial<SessionUsage> | null, ...children: UsageNode[]): UsageNode => ({ usage: usage ? { source: 'test', ...usage } : null, children });

test('subtree usage never counts twice: a report that includes its subagents is not added to theirs', () => {
  const includes = subtreeUsage(node({ totalTokens: 500, includesSubagents: true }, node({ totalTokens: 120 }), node({ totalTokens: 80 })));
  assert.deepEqual(includes.total, { totalTokens: 500 }, 'not 700');
  assert.deepEqual(subtreeUsageLines(includes), ['This session with its subagents: 500 tokens', 'Reported by: test']);

  const excludes = subtreeUsage(node({ totalTokens: 300, includesSubagents: false }, node({ totalTokens: 120 }), node({ totalTokens: 80 })));
  assert.deepEqual(excludes.total, { totalTokens: 500 });
  assert.deepEqual(subtreeUsageLines(excludes).slice(0, 2), ['This session: 300 tokens', 'With its subagents: 500 tokens']);

  // The wire does not say: both shown, each for what it is, and no sum.
  const unknown = subtreeUsage(node({ totalTokens: 240, cost: { amount: 0.0024, currency: 'USD' } }, node({ totalTokens: 120 }), node({ totalTokens: 80 })));
  assert.equal(unknown.total, null);
  assert.deepEqual(unknown.subagents, { totalTokens: 200 });
  assert.deepEqual(subtreeUsageLines(unknown).slice(0, 2), ['This session (as reported): 240 tokens · 0.0024 USD', 'Subagents: 200 tokens']);

  // A subagent whose report may include its own subagent's: the grandchild is not added on top of it.
  const nested = subtreeUsage(node(null, node({ totalTokens: 100 }, node({ totalTokens: 60 }))));
  assert.deepEqual(nested.subagents, { totalTokens: 100 });
  assert.equal(nested.partial, true);
  // One that did not report: its subagent's report is all there is, added once.
  assert.deepEqual(subtreeUsage(node(null, node(null, node({ totalTokens: 60 })))).subagents, { totalTokens: 60 });
  // Costs add up only when each reported one in the same currency.
  assert.deepEqual(subtreeUsage(node(null, node({ cost: { amount: 1, currency: 'USD' } }), node({ cost: { amount: 2, currency: 'EUR' } }))).subagents, {});
});

test('the tree tooltip and the chat header say the root’s and the subagent’s usage apart (claude-single)', () => {
  const { store, snapshot } = replayFixture('traces', 'claude-single.jsonl');
  const [root, child] = snapshot.sessions;
  const runtime = { id: 'c1', agent: { id: 'claude', name: 'Claude', command: 'claude' }, live: false, status: 'history' as const, store };
  // The tooltip is markdown with punctuation escaped (`\:`); read it as it renders.
  const tooltip = sessionItemOf(runtime, root!.id, 0)!.tooltip.replace(/\\(.)/g, '$1');
  for (const line of ['This session (as reported): 240 tokens · 0.0024 USD', 'Subagents: 120 tokens', 'Context: 101 / 200,000 tokens', 'Reported by: prompt-result + usage_update']) {
    assert.ok(tooltip.includes(`${line}  \n`), `${line}\n${tooltip}`);
  }
  const header = sessionHeader(store, store.getSession(child!.id)!);
  assert.equal(usageText(header.spend), '120 tokens');
  assert.deepEqual(header.spendLines, ['Usage: 120 tokens', 'Reported by: claude-task-result']);
  assert.deepEqual(sessionHeader(store, store.getSession(root!.id)!).spendLines.slice(0, 2), ['This session (as reported): 240 tokens · 0.0024 USD', 'Subagents: 120 tokens']);
});
