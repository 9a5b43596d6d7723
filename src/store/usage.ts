// Every usage report the agents send, read into one shape (pure readers of the wire), and how one session's
// reports merge into the usage every view reads (SessionRecord.spend). Nothing here guesses: a figure the
// agent did not report stays absent, and a cost is only ever the agent's own.
import type { SessionUsage, UsageCost, UsageFigures, UsageReport, UsageSource } from '../protocol/usage';
import { asString, isObject, type JsonObject } from './wireMessage';

export type { SessionUsage, UsageReport } from '../protocol/usage';

/** A session's reports, one per source (a later report of a kind replaces, or adds to, the earlier one). */
export type UsageReports = Readonly<Partial<Record<UsageSource, UsageReport>>>;

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** Keeps only the fields that carry a value. */
function figures(raw: { -readonly [K in keyof UsageFigures]: UsageFigures[K] | undefined }): UsageFigures {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) if (value !== undefined) out[key] = value;
  return out as UsageFigures;
}

function hasFigures(report: UsageFigures): boolean {
  return Object.keys(report).some((key) => key !== 'source' && key !== 'reports');
}

function hasTokens(report: UsageFigures | undefined): boolean {
  return report?.totalTokens !== undefined || report?.inputTokens !== undefined || report?.outputTokens !== undefined;
}

/** `{amount, currency}` (ACP `usage_update.cost`). */
function readCost(raw: unknown): UsageCost | undefined {
  if (!isObject(raw)) return undefined;
  const amount = typeof raw['amount'] === 'number' && Number.isFinite(raw['amount']) ? raw['amount'] : undefined;
  if (amount === undefined) return undefined;
  const currency = asString(raw['currency']);
  return currency ? { amount, currency } : { amount };
}

/**
 * Token counts in any of the spellings agents use: ACP `{inputTokens, outputTokens, totalTokens,
 * cachedReadTokens}`, `_meta.quota.token_count` (codex/claude camelCase, gemini `input_tokens`), Anthropic's
 * `{input_tokens, output_tokens, cache_read_input_tokens}`.
 */
function readTokenCounts(raw: unknown): UsageFigures {
  if (!isObject(raw)) return {};
  return figures({
    totalTokens: count(raw['totalTokens']) ?? count(raw['total_tokens']),
    inputTokens: count(raw['inputTokens']) ?? count(raw['input_tokens']),
    outputTokens: count(raw['outputTokens']) ?? count(raw['output_tokens']),
    cachedReadTokens: count(raw['cachedReadTokens']) ?? count(raw['cachedInputTokens']) ?? count(raw['cache_read_input_tokens']),
  });
}

/** `usage_update`: the context window and the session's cost so far; claude names the model in `_meta`. */
export function readUsageUpdate(update: JsonObject): UsageReport | undefined {
  const meta = isObject(update['_meta']) ? update['_meta'] : undefined;
  const report = figures({
    contextUsed: count(update['used']),
    contextSize: count(update['size']),
    cost: readCost(update['cost']),
    model: asString(meta?.['_claude/model']),
  });
  return hasFigures(report) ? { source: 'usage_update', ...report } : undefined;
}

/**
 * One turn's usage: a v1 prompt result, or the v2 idle state that ends a turn (same shape). ACP's `usage`
 * first; without it `_meta.quota.token_count` (gemini sends only that). The model is `_meta.quota.model_usage`'s
 * when it names one model. Its token counts are not used: claude's add up the subagents' calls too, while
 * `usage` and `token_count` are the session's own turn.
 */
export function readTurnUsage(body: JsonObject, source: 'prompt-result' | 'state_update'): UsageReport | undefined {
  const meta = isObject(body['_meta']) ? body['_meta'] : undefined;
  const quota = isObject(meta?.['quota']) ? meta['quota'] : undefined;
  let tokens = readTokenCounts(body['usage']);
  if (!hasTokens(tokens)) tokens = readTokenCounts(quota?.['token_count']);
  const models = Array.isArray(quota?.['model_usage']) ? quota['model_usage'].map((item) => (isObject(item) ? asString(item['model']) : undefined)).filter((m): m is string => m !== undefined) : [];
  const distinct = [...new Set(models)];
  const report = figures({ ...tokens, model: distinct.length === 1 ? distinct[0] : undefined });
  return hasFigures(report) ? { source, ...report } : undefined;
}

/** Claude's `<usage>total_tokens: N …</usage>` (claude-agent-acp; newer ones say `subagent_tokens: N`). */
const CLAUDE_USAGE_TAG = /<usage>[\s\S]*?\b(?:total_tokens|subagent_tokens):\s*(\d+)[\s\S]*?<\/usage>/;

function textsOf(raw: unknown): string[] {
  if (typeof raw === 'string') return [raw];
  if (!Array.isArray(raw)) return [];
  const texts: string[] = [];
  for (const item of raw) {
    if (!isObject(item)) continue;
    const text = asString(item['text']) ?? (isObject(item['content']) ? asString(item['content']['text']) : undefined);
    if (text !== undefined) texts.push(text);
  }
  return texts;
}

/**
 * What a subagent's launching call says the subagent spent, when its result comes: Claude's Agent call
 * (`_meta.claudeCode.toolResponse` {totalTokens, usage, resolvedModel}, or the `<usage>` tag in its result text),
 * qwen's task call (`rawOutput.executionSummary`), opencode's task call (`rawOutput.metadata.model`).
 */
export function readTaskResultUsage(update: JsonObject): UsageReport | undefined {
  const meta = isObject(update['_meta']) ? update['_meta'] : undefined;
  const claude = isObject(meta?.['claudeCode']) ? meta['claudeCode'] : undefined;
  const response = isObject(claude?.['toolResponse']) ? claude['toolResponse'] : undefined;
  const tagged = [...textsOf(update['rawOutput']), ...textsOf(update['content'])].map((text) => CLAUDE_USAGE_TAG.exec(text)?.[1]).find((n) => n !== undefined);
  if (response && (count(response['totalTokens']) !== undefined || isObject(response['usage']))) {
    const split = readTokenCounts(response['usage']);
    const report = figures({
      totalTokens: count(response['totalTokens']),
      inputTokens: split.inputTokens,
      outputTokens: split.outputTokens,
      cachedReadTokens: split.cachedReadTokens,
      model: asString(response['resolvedModel']),
    });
    if (hasFigures(report)) return { source: 'claude-task-result', ...report };
  }
  if (tagged !== undefined) return { source: 'claude-task-result', totalTokens: Number(tagged) };
  const rawOutput = isObject(update['rawOutput']) ? update['rawOutput'] : undefined;
  if (rawOutput?.['type'] === 'task_execution' && isObject(rawOutput['executionSummary'])) {
    const report = readTokenCounts(rawOutput['executionSummary']);
    if (hasTokens(report)) return { source: 'qwen-task-result', ...report };
  }
  const metadata = isObject(rawOutput?.['metadata']) ? rawOutput['metadata'] : undefined;
  const model = isObject(metadata?.['model']) ? asString(metadata['model']['modelID']) : undefined;
  if (model) return { source: 'opencode-task-result', model };
  return undefined;
}

/** Copilot `subagent.completed` data: `{model, totalTokens, totalToolCalls, durationMs}`. */
export function readCopilotSubagentUsage(data: JsonObject): UsageReport | undefined {
  const report = figures({ totalTokens: count(data['totalTokens']), model: asString(data['model']) });
  return hasFigures(report) ? { source: 'copilot-subagent.completed', ...report } : undefined;
}

/**
 * Copilot `assistant.usage` data (one model call): `{model, inputTokens, outputTokens, cacheReadTokens}`.
 * Its `cost` is a premium-request multiplier, not money: it is not read as a cost.
 */
export function readCopilotCallUsage(data: JsonObject): UsageReport | undefined {
  const report = figures({
    inputTokens: count(data['inputTokens']),
    outputTokens: count(data['outputTokens']),
    cachedReadTokens: count(data['cacheReadTokens']),
    model: asString(data['model']),
  });
  return hasTokens(report) ? { source: 'copilot-assistant.usage', ...report } : undefined;
}

/** Sources whose reports each cover one part (a turn, a model call): they add up. The rest replace. */
const ADDED_UP: ReadonlySet<UsageSource> = new Set(['prompt-result', 'state_update', 'copilot-assistant.usage']);

function sum(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : a + b;
}

/**
 * The session's reports with a new one in. A later report of the same kind replaces the earlier one's figures — except
 * a turn's usage (prompt result, idle state) and a Copilot model call's, which ACP and Copilot report per turn
 * and per call: those are summed, so the record is what the session spent over the turns this client saw
 * (turns replayed by session/load carry no usage). `usage_update` is not summed: it is cumulative (the context
 * now, the cost so far).
 */
export function withReport(reports: UsageReports, report: UsageReport): UsageReports {
  const earlier = reports[report.source];
  if (!earlier) return { ...reports, [report.source]: report };
  // Replacing is field by field: a usage_update without a cost keeps the cost the last one reported, and
  // Claude's Agent result said in two forms (its toolResponse, then the `<usage>` tag) keeps the fuller one's.
  if (!ADDED_UP.has(report.source)) return { ...reports, [report.source]: { ...earlier, ...report } };
  const added: UsageReport = {
    source: report.source,
    ...figures({
      totalTokens: sum(earlier.totalTokens, report.totalTokens),
      inputTokens: sum(earlier.inputTokens, report.inputTokens),
      outputTokens: sum(earlier.outputTokens, report.outputTokens),
      cachedReadTokens: sum(earlier.cachedReadTokens, report.cachedReadTokens),
      model: report.model ?? earlier.model,
    }),
    reports: (earlier.reports ?? 1) + 1,
  };
  return { ...reports, [report.source]: added };
}

// Which report the merged usage takes each figure from. Tokens: a whole-run summary of a subagent (what its
// launching call or Copilot's event says it spent) before the turns this client saw, then per-call sums.
const TOKEN_ORDER: readonly UsageSource[] = ['copilot-subagent.completed', 'claude-task-result', 'qwen-task-result', 'state_update', 'prompt-result', 'copilot-assistant.usage'];
// Cost: usage_update's is the session's cost so far.
const COST_ORDER: readonly UsageSource[] = ['usage_update', ...TOKEN_ORDER];
// Model: the one a subagent's end names, then what its turns or context reports name.
const MODEL_ORDER: readonly UsageSource[] = ['copilot-subagent.completed', 'claude-task-result', 'opencode-task-result', 'copilot-assistant.usage', 'state_update', 'prompt-result', 'usage_update'];

/**
 * A session's usage from its reports: each figure from one report (token counts all from the same one, never
 * mixed across sources), and `source` naming the reports used. `fallbackModel` is a model the agent named
 * elsewhere (a dialect's `meta.model`), used when no usage report names one. Null when nothing was reported.
 */
export function mergeUsage(reports: UsageReports, fallbackModel?: string): SessionUsage | null {
  const used: UsageSource[] = [];
  const pick = (order: readonly UsageSource[], has: (report: UsageReport) => boolean): UsageReport | undefined => {
    const found = order.map((source) => reports[source]).find((report): report is UsageReport => report !== undefined && has(report));
    if (found && !used.includes(found.source)) used.push(found.source);
    return found;
  };
  const tokens = pick(TOKEN_ORDER, hasTokens);
  const cost = pick(COST_ORDER, (report) => report.cost !== undefined)?.cost;
  const context = pick(['usage_update'], (report) => report.contextUsed !== undefined || report.contextSize !== undefined);
  const model = pick(MODEL_ORDER, (report) => report.model !== undefined)?.model ?? (used.length > 0 ? fallbackModel : undefined);
  if (used.length === 0) return null;
  return {
    ...figures({
      totalTokens: tokens?.totalTokens,
      inputTokens: tokens?.inputTokens,
      outputTokens: tokens?.outputTokens,
      cachedReadTokens: tokens?.cachedReadTokens,
      cost,
      model,
      contextUsed: context?.contextUsed,
      contextSize: context?.contextSize,
    }),
    source: used.join(' + '),
  };
}
