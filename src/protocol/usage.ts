// What a session's agent reported it spent: tokens, cost and model, in one shape for the store, the tree and
// the chat. The store reads the wire into it (src/store/usage.ts); src/presentation/usage.ts words it.

/** Where on the wire a usage report came from. */
export type UsageSource =
  /** ACP `usage_update`: the context window (used/size, not spend) and the session's cost so far. */
  | 'usage_update'
  /** A v1 `session/prompt` result: its `usage`, or `_meta.quota` (gemini, claude, codex); one turn's tokens. */
  | 'prompt-result'
  /** A reported idle state (v2 `state_update`, a `subagent_update` state) with its turn's `usage`. */
  | 'state_update'
  /** Claude's Agent call result on the parent: `_meta.claudeCode.toolResponse` and `<usage>total_tokens: N</usage>`. */
  | 'claude-task-result'
  /** qwen-code's subagent call result: `rawOutput.executionSummary`. */
  | 'qwen-task-result'
  /** opencode's task call result: `rawOutput.metadata.model` (the model only). */
  | 'opencode-task-result'
  /** GitHub Copilot's `subagent.completed` session event: `{model, totalTokens}`. */
  | 'copilot-subagent.completed'
  /** GitHub Copilot's `assistant.usage` session events, one a model call. */
  | 'copilot-assistant.usage';

/** A cost as the agent reported it (never computed from tokens). */
export interface UsageCost {
  readonly amount: number;
  /** ISO 4217 code as reported (absent when the agent named none). */
  readonly currency?: string;
}

/** The figures of a usage report; each field only where the agent reported it. */
export interface UsageFigures {
  readonly totalTokens?: number;
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly cachedReadTokens?: number;
  readonly cost?: UsageCost;
  /** The model it ran on, as the agent named it. */
  readonly model?: string;
  /** Tokens in its context window now, and the window's size (`usage_update`): context, not spend. */
  readonly contextUsed?: number;
  readonly contextSize?: number;
}

/** One source's report on a session. */
export interface UsageReport extends UsageFigures {
  readonly source: UsageSource;
  /** For per-turn sources (prompt-result, state_update, copilot-assistant.usage): how many reports were added up. */
  readonly reports?: number;
}

/** A session's usage as every view reads it: the figures merged from its reports, and where they came from. */
export interface SessionUsage extends UsageFigures {
  /** The sources the figures came from, in the order tokens, cost, context, model (e.g. "prompt-result + usage_update"). */
  readonly source: string;
  /**
   * Whether the figures already include its subagents' usage: true or false only where the wire says so;
   * absent when it does not (then views show the session's and its subagents' usage apart, never summed).
   */
  readonly includesSubagents?: boolean;
}
