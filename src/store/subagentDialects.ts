// Recognises how each agent puts subagents on the wire (see the dialect notes in README.md).
// Pure functions over raw update objects: no store state here.
import type { SessionLink } from './model';
import type { SubagentSpawn } from './subagentSpawn';
import { isCopilotTask } from './dialects/copilot';
import { detectGenericTask, detectMarkedSpawn } from './dialects/detect';
import { asString, isObject, type JsonObject } from './wireMessage';

const CLAUDE_AGENT_TOOLS = new Set(['Agent', 'Task']);

function metaOf(value: JsonObject): JsonObject | undefined {
  return isObject(value['_meta']) ? value['_meta'] : undefined;
}

/** Is this `tool_call` / `tool_call_update` the launch of a subagent, and in which dialect? */
export function detectSubagentToolCall(update: JsonObject): SubagentSpawn | undefined {
  const meta = metaOf(update);
  const subagent = isObject(update['subagent']) ? update['subagent'] : undefined;
  const rawInput = isObject(update['rawInput']) ? update['rawInput'] : undefined;
  const subagentType = asString(rawInput?.['subagent_type']) ?? asString(rawInput?.['agent_type']) ?? asString(meta?.['subagentType']) ?? asString(subagent?.['displayName']);
  const typed = (spawn: SubagentSpawn): SubagentSpawn => (subagentType ? { ...spawn, subagentType } : spawn);
  const marked = detectMarkedSpawn(update);
  if (marked) return marked;

  // Draft PR #855: kind "subagent" with a run-info object naming the child session.
  const draftChild = asString(subagent?.['childSessionId']);
  if (update['kind'] === 'subagent' || draftChild) {
    const background = subagent?.['runMode'] === 'background' ? { background: true } : {};
    return typed(draftChild ? { link: 'tool-kind', childSessionId: draftChild, ...background } : { link: 'tool-kind', ...background });
  }
  // Zed / AgentPool: update _meta.subagent_session_info.session_id.
  const zedInfo = isObject(meta?.['subagent_session_info']) ? meta['subagent_session_info'] : undefined;
  const zedChild = asString(zedInfo?.['session_id']);
  if (zedChild) return typed({ link: 'zed-meta', childSessionId: zedChild });

  const claude = isObject(meta?.['claudeCode']) ? meta['claudeCode'] : undefined;
  const claudeTool = asString(claude?.['toolName']);
  if (claudeTool && CLAUDE_AGENT_TOOLS.has(claudeTool)) return typed({ link: 'claude-meta' });
  if (meta?.['toolName'] === 'agent') return typed({ link: 'qwen-meta' });

  // GitHub Copilot CLI's `task`: its subagent's own calls come tagged with an agentId.
  if (isCopilotTask(rawInput)) return typed({ link: 'copilot-meta' });
  // Agents that show a subagent only as an opaque tool call.
  if (rawInput && typeof rawInput['prompt'] === 'string' && (rawInput['subagent_type'] !== undefined || rawInput['agent_name'] !== undefined)) {
    return typed({ link: 'opaque-tool' });
  }
  const toolCallId = asString(update['toolCallId']) ?? '';
  const name = asString(update['name']);
  if (toolCallId.startsWith('invoke_agent') || name === 'invoke_agent') return typed({ link: 'opaque-tool' });
  if (update['title'] === 'spawnAgent' || name === 'spawnAgent') return typed({ link: 'opaque-tool' });
  return detectGenericTask(update);
}

export interface ParentMarker {
  readonly link: 'claude-meta' | 'qwen-meta';
  readonly parentToolCallId: string;
  readonly subagentType?: string;
}

/**
 * The marker that puts an update on the parent session into a child's stream:
 * Claude's `_meta.claudeCode.parentToolUseId`, qwen-code's `_meta.parentToolCallId` (or top-level on tool updates).
 * A marker naming the update's own tool call is dropped (qwen's self-reference guard).
 */
export function parentMarkerOf(update: JsonObject): ParentMarker | undefined {
  const meta = metaOf(update);
  const ownToolCallId = asString(update['toolCallId']);
  const subagentType = asString(meta?.['subagentType']);
  const claude = isObject(meta?.['claudeCode']) ? meta['claudeCode'] : undefined;
  const claudeParent = asString(claude?.['parentToolUseId']);
  if (claudeParent && claudeParent !== ownToolCallId) return { link: 'claude-meta', parentToolCallId: claudeParent };
  const qwenParent = asString(meta?.['parentToolCallId']) ?? asString(update['parentToolCallId']);
  if (qwenParent && qwenParent !== ownToolCallId) {
    return subagentType ? { link: 'qwen-meta', parentToolCallId: qwenParent, subagentType } : { link: 'qwen-meta', parentToolCallId: qwenParent };
  }
  return undefined;
}

/** AgentPool: child traffic under the child's own session id, with the parent tool call in params `_meta`. */
export function agentPoolParentOf(params: JsonObject): { parentToolCallId: string; subagentType?: string } | undefined {
  const meta = metaOf(params);
  const parentToolCallId = asString(meta?.['parentToolCallId']);
  if (!parentToolCallId) return undefined;
  const subagentType = asString(meta?.['subagentType']);
  return subagentType ? { parentToolCallId, subagentType } : { parentToolCallId };
}

/** qwen-code copies a child's latest activity onto the parent's Agent call as a one-line progress content. */
export function isProgressCopy(update: JsonObject): boolean {
  return metaOf(update)?.['subagentProgress'] === true;
}

/** opencode names the child session only when the task completes, in `rawOutput.metadata.sessionId`. */
export function remoteChildSessionId(update: JsonObject): string | undefined {
  const rawOutput = isObject(update['rawOutput']) ? update['rawOutput'] : undefined;
  const metadata = isObject(rawOutput?.['metadata']) ? rawOutput['metadata'] : undefined;
  return asString(metadata?.['sessionId']);
}

/** The text blocks of a tool call's content (`{type: "content", content: {type: "text", text}}`), in order. */
export function toolContentTexts(content: unknown): string[] {
  const texts: string[] = [];
  if (!Array.isArray(content)) return texts;
  for (const item of content) {
    const text = isObject(item) && isObject(item['content']) ? asString(item['content']['text']) : undefined;
    if (text !== undefined) texts.push(text);
  }
  return texts;
}

// opencode's launch envelope of a background task.
const OPENCODE_RUNNING_TASK = /<task\b[^>]*\bstate="running"/;

// What agents say when a subagent launch returns at once while the subagent keeps working.
const BACKGROUND_TEXT = [
  /\bbackground agent launched\b/i, // qwen-code
  /\blaunched (?:successfully )?in(?: the)? background\b/i,
  /\bstarted in background\b/i, // GitHub Copilot CLI: "Agent started in background with agent_id: …"
  OPENCODE_RUNNING_TASK, // opencode: <task id="ses_…" state="running">
];

/** A completed subagent call whose result says the subagent runs on in the background. */
export function isBackgroundLaunch(record: { readonly rawInput?: unknown; readonly rawOutput?: unknown; readonly content: readonly unknown[]; readonly meta?: Record<string, unknown> }): boolean {
  const output = isObject(record.rawOutput) ? record.rawOutput : undefined;
  const metadata = isObject(output?.['metadata']) ? output['metadata'] : undefined;
  if (metadata?.['background'] === true) return true; // opencode
  if (output?.['status'] === 'background' || output?.['executionMode'] === 'background') return true; // qwen-code
  if (output?.['status'] === 'running') return true; // sudocode: "rawOutput.status: running" and no result yet
  const claude = isObject(record.meta?.['claudeCode']) ? record.meta['claudeCode'] : undefined;
  const response = isObject(claude?.['toolResponse']) ? claude['toolResponse'] : undefined;
  if (response?.['status'] === 'async_launched') return true;
  return launchTexts(record).some((text) => BACKGROUND_TEXT.some((pattern) => pattern.test(text)));
}

/** What a launch call's result says in words (its content texts and opencode's `rawOutput.output`), each cut to its start. */
function launchTexts(record: { readonly rawOutput?: unknown; readonly content: readonly unknown[] }): string[] {
  const output = isObject(record.rawOutput) ? record.rawOutput : undefined;
  const texts = toolContentTexts(record.content);
  if (typeof output?.['output'] === 'string') texts.push(output['output']);
  return texts.map((text) => text.slice(0, 2000));
}

/**
 * opencode's background task: its launch result is the `<task … state="running">` envelope, and opencode tells the
 * job's end only by starting a turn of the parent itself (its `inject()` prompts the parent with the result).
 */
export function endsWithParentTurn(record: { readonly rawOutput?: unknown; readonly content: readonly unknown[] }): boolean {
  return launchTexts(record).some((text) => OPENCODE_RUNNING_TASK.test(text));
}

/** The id an agent gives a background subagent at launch, to report on it later. */
export function backgroundTaskId(record: { readonly rawOutput?: unknown; readonly content: readonly unknown[] }): string | undefined {
  const output = isObject(record.rawOutput) ? record.rawOutput : undefined;
  const metadata = isObject(output?.['metadata']) ? output['metadata'] : undefined;
  const jobId = asString(metadata?.['jobId']);
  if (jobId) return jobId;
  for (const text of toolContentTexts(record.content)) {
    const match = /\b(?:agentId|agent_id|task_id):\s*([\w.:-]+)/.exec(text.slice(0, 2000));
    if (match) return match[1];
  }
  return undefined;
}

/** qwen-code reports a background subagent's end as a notification message with `_meta.backgroundTask`. */
export function backgroundTaskReport(update: JsonObject): { readonly taskId: string; readonly status: string } | undefined {
  const task = isObject(metaOf(update)?.['backgroundTask']) ? (metaOf(update)!['backgroundTask'] as JsonObject) : undefined;
  const taskId = asString(task?.['taskId']);
  const status = asString(task?.['status']);
  return taskId && status ? { taskId, status } : undefined;
}

/** qwen-code marks messages that stand on their own (background notifications) so they are not merged. */
export function isDiscreteMessage(update: JsonObject): boolean {
  return metaOf(update)?.['qwenDiscreteMessage'] === true;
}

/** Codex (no subagent capability): collab tool calls report each child thread's state in `agentsStates`. */
export interface ReportedThreadState {
  readonly threadId: string;
  readonly state: { readonly state: string; readonly stopReason?: string };
  readonly message?: string;
}

const CODEX_THREAD_STATES: Readonly<Record<string, { state: string; stopReason?: string }>> = Object.assign(Object.create(null) as object, {
  pendingInit: { state: 'running' },
  running: { state: 'running' },
  inProgress: { state: 'running' },
  completed: { state: 'idle', stopReason: 'end_turn' },
  errored: { state: 'idle', stopReason: 'error' },
  interrupted: { state: 'idle', stopReason: 'cancelled' },
  shutdown: { state: 'idle', stopReason: 'cancelled' },
  notFound: { state: 'unknown' },
});

export function codexThreadStates(record: { readonly rawInput?: unknown; readonly rawOutput?: unknown }): ReportedThreadState[] {
  const states: ReportedThreadState[] = [];
  for (const raw of [record.rawInput, record.rawOutput]) {
    const agents = isObject(raw) && isObject(raw['agentsStates']) ? raw['agentsStates'] : undefined;
    for (const [threadId, report] of Object.entries(agents ?? {})) {
      const status = isObject(report) ? asString(report['status']) : undefined;
      const state = status ? (CODEX_THREAD_STATES[status] ?? { state: status }) : undefined;
      if (!state) continue;
      const message = isObject(report) ? asString(report['message']) : undefined;
      states.push({ threadId, state, ...(message ? { message } : {}) });
    }
  }
  return states;
}

/** The child threads a Codex `spawnAgent` call started. */
export function codexSpawnedThreads(record: { readonly rawInput?: unknown; readonly rawOutput?: unknown }): string[] {
  const input = isObject(record.rawInput) ? record.rawInput : undefined;
  const ids = Array.isArray(input?.['receiverThreadIds']) ? input['receiverThreadIds'].filter((id): id is string => typeof id === 'string') : [];
  return ids.length > 0 ? ids : codexThreadStates(record).map((s) => s.threadId);
}

/**
 * What a finished subagent call reports as the subagent's result: its text content, without the wrappers
 * agents put around it for their model (opencode's `<task …><task_result>…</task_result></task>`, Claude's
 * `<tools-used-before-summary>`). Undefined when it reported nothing.
 */
export function taskResultText(record: { readonly content: readonly unknown[] }): string | undefined {
  const joined = toolContentTexts(record.content).join('\n').replace(/<tools-used-before-summary>[\s\S]*?<\/tools-used-before-summary>/g, '');
  const inner = /<task_result>\n?([\s\S]*?)\n?<\/task_result>/.exec(joined)?.[1];
  return (inner ?? joined).trim() || undefined;
}

/** What `questionsNotForwardedBy` reads: the session and a way to find its parent's launching call. */
type QuestionsReader = { getSession(sessionId: string): { readonly toolCalls: Readonly<Record<string, { readonly toolCallId: string; readonly title?: string; readonly rawInput?: unknown }>> } | undefined };

/**
 * The agent (by product name) that keeps a subagent's permission questions to itself: opencode (`task`) and
 * Gemini CLI (`invoke_agent`) never send them, so such a child that waits on one just goes quiet
 * (dialects I', J'). Null for every other child, where a question would reach the client.
 */
export function questionsNotForwardedBy(
  store: QuestionsReader,
  session: { readonly link: SessionLink; readonly parentId: string | null; readonly parentToolCallId: string | null },
): string | null {
  if (session.link !== 'opaque-tool' || !session.parentId || !session.parentToolCallId) return null;
  const launch = store.getSession(session.parentId)?.toolCalls[session.parentToolCallId];
  if (!launch) return null;
  const rawInput = isObject(launch.rawInput) ? launch.rawInput : undefined;
  if (launch.toolCallId.startsWith('invoke_agent') || rawInput?.['agent_name'] !== undefined) return 'Gemini CLI';
  if (launch.title === 'spawnAgent') return null; // Codex: its children's requests are not known to be dropped
  return rawInput?.['subagent_type'] !== undefined || launch.title === 'task' ? 'opencode' : null;
}

/** codex-acp's `session_info_update` `_meta.codex.threadStatus {type: "idle"}`: its thread has stopped working. */
export function isCodexThreadIdle(update: JsonObject): boolean {
  const meta = isObject(update['_meta']) ? update['_meta'] : undefined;
  const codex = isObject(meta?.['codex']) ? meta['codex'] : undefined;
  const status = isObject(codex?.['threadStatus']) ? codex['threadStatus'] : undefined;
  return status?.['type'] === 'idle';
}

/**
 * claude-agent-acp: a subagent's reply to its parent that starts "Async agent launched successfully" means the
 * subagent now works in the background (a steer moves a running foreground Agent call there). The sender's id.
 */
export function claudeAsyncLaunchSender(update: JsonObject): string | undefined {
  const blocks = Array.isArray(update['content']) ? update['content'] : [];
  const first = blocks.find(isObject);
  if (typeof first?.['text'] !== 'string' || !first['text'].startsWith('Async agent launched successfully')) return undefined;
  return asString(update['senderSessionId']);
}
