// Recognises how each agent puts subagents on the wire (see the dialect notes in README.md).
// Pure functions over raw update objects: no store state here.
import type { SessionLink } from './model';
import { asString, isObject, type JsonObject } from './wireMessage';

export interface SubagentSpawn {
  readonly link: SessionLink;
  /** A real child session id on the wire; absent when the child is reconstructed from the tool call (virtual). */
  readonly childSessionId?: string;
  readonly subagentType?: string;
}

const CLAUDE_AGENT_TOOLS = new Set(['Agent', 'Task']);

function metaOf(value: JsonObject): JsonObject | undefined {
  return isObject(value['_meta']) ? value['_meta'] : undefined;
}

/** Is this `tool_call` / `tool_call_update` the launch of a subagent, and in which dialect? */
export function detectSubagentToolCall(update: JsonObject): SubagentSpawn | undefined {
  const meta = metaOf(update);
  const subagent = isObject(update['subagent']) ? update['subagent'] : undefined;
  const rawInput = isObject(update['rawInput']) ? update['rawInput'] : undefined;
  const subagentType = asString(rawInput?.['subagent_type']) ?? asString(meta?.['subagentType']) ?? asString(subagent?.['displayName']);
  const typed = (spawn: SubagentSpawn): SubagentSpawn => (subagentType ? { ...spawn, subagentType } : spawn);

  // Draft PR #855: kind "subagent" with a run-info object naming the child session.
  const draftChild = asString(subagent?.['childSessionId']);
  if (update['kind'] === 'subagent' || draftChild) {
    return typed(draftChild ? { link: 'tool-kind', childSessionId: draftChild } : { link: 'tool-kind' });
  }
  // Zed / AgentPool: update _meta.subagent_session_info.session_id.
  const zedInfo = isObject(meta?.['subagent_session_info']) ? meta['subagent_session_info'] : undefined;
  const zedChild = asString(zedInfo?.['session_id']);
  if (zedChild) return typed({ link: 'zed-meta', childSessionId: zedChild });

  const claude = isObject(meta?.['claudeCode']) ? meta['claudeCode'] : undefined;
  const claudeTool = asString(claude?.['toolName']);
  if (claudeTool && CLAUDE_AGENT_TOOLS.has(claudeTool)) return typed({ link: 'claude-meta' });
  if (meta?.['toolName'] === 'agent') return typed({ link: 'qwen-meta' });

  // Agents that show a subagent only as an opaque tool call.
  if (rawInput && typeof rawInput['prompt'] === 'string' && (rawInput['subagent_type'] !== undefined || rawInput['agent_name'] !== undefined)) {
    return typed({ link: 'opaque-tool' });
  }
  const toolCallId = asString(update['toolCallId']) ?? '';
  const name = asString(update['name']);
  if (toolCallId.startsWith('invoke_agent') || name === 'invoke_agent') return typed({ link: 'opaque-tool' });
  if (update['title'] === 'spawnAgent' || name === 'spawnAgent') return typed({ link: 'opaque-tool' });
  return undefined;
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

// What agents say when a subagent launch returns at once while the subagent keeps working.
const BACKGROUND_TEXT = [
  /\bbackground agent launched\b/i, // qwen-code
  /\blaunched (?:successfully )?in(?: the)? background\b/i,
  /\bstarted in background\b/i, // GitHub Copilot CLI: "Agent started in background with agent_id: …"
  /<task\b[^>]*\bstate="running"/, // opencode: <task id="ses_…" state="running">
];

/** A completed subagent call whose result says the subagent runs on in the background. */
export function isBackgroundLaunch(record: { readonly rawInput?: unknown; readonly rawOutput?: unknown; readonly content: readonly unknown[]; readonly meta?: Record<string, unknown> }): boolean {
  const output = isObject(record.rawOutput) ? record.rawOutput : undefined;
  const metadata = isObject(output?.['metadata']) ? output['metadata'] : undefined;
  if (metadata?.['background'] === true) return true;
  const claude = isObject(record.meta?.['claudeCode']) ? record.meta['claudeCode'] : undefined;
  const response = isObject(claude?.['toolResponse']) ? claude['toolResponse'] : undefined;
  if (response?.['status'] === 'async_launched') return true;
  const texts: string[] = [];
  for (const item of record.content) {
    if (isObject(item) && isObject(item['content']) && typeof item['content']['text'] === 'string') texts.push(item['content']['text']);
  }
  if (typeof output?.['output'] === 'string') texts.push(output['output']);
  return texts.some((text) => BACKGROUND_TEXT.some((pattern) => pattern.test(text.slice(0, 2000))));
}
