// Devin CLI (`devin acp`), once the client sets `clientCapabilities._meta["cognition.ai/subagentSupport"]`:
// each subagent is reported on the parent session as a `tool_call_update` whose toolCallId is the subagent's
// agentId (never announced by a `tool_call`), with `_meta["cognition.ai/subagent_started"]` {agentId, title,
// task, profile, depth, isBackground, model} and later `_meta["cognition.ai/subagent_completed"]` {agentId,
// success, summary}. Every update the subagent makes (text, thoughts, tool calls, usage) carries
// `_meta["cognition.ai/subagent_context"].parentAgentId` ("root" for the main agent).
// Shapes: frames captured from `devin acp` in omnigent-ai/omnigent tests/inner/devin/test_devin_subagents.py, and
// LodyAI/Lody issue #765 (the capability). Pure readers of the wire shapes.
import { asString, isObject, type JsonObject } from '../wireMessage';
import { t } from '../../presentation/l10n';

export const DEVIN_STARTED_KEY = 'cognition.ai/subagent_started';
export const DEVIN_COMPLETED_KEY = 'cognition.ai/subagent_completed';
const DEVIN_CONTEXT_KEY = 'cognition.ai/subagent_context';
/** The client capability (initialize `clientCapabilities._meta`) without which Devin sends none of this. */
export const DEVIN_SUBAGENT_SUPPORT_KEY = 'cognition.ai/subagentSupport';

/** The main agent's id in `subagent_context.parentAgentId`. */
const DEVIN_ROOT_AGENT = 'root';

export interface DevinSubagentStart {
  readonly agentId: string;
  readonly title?: string;
  readonly task?: string;
  readonly profile?: string;
  readonly model?: string;
  readonly background: boolean;
}

function metaEntry(update: JsonObject, key: string): JsonObject | undefined {
  const meta = isObject(update['_meta']) ? update['_meta'] : undefined;
  return isObject(meta?.[key]) ? meta[key] : undefined;
}

export function readDevinStart(update: JsonObject): DevinSubagentStart | undefined {
  const started = metaEntry(update, DEVIN_STARTED_KEY);
  const agentId = asString(started?.['agentId'])?.trim();
  if (!started || !agentId) return undefined;
  const title = asString(started['title'])?.trim() || undefined;
  const task = asString(started['task'])?.trim() || undefined;
  const profile = asString(started['profile'])?.trim() || undefined;
  const model = asString(started['model'])?.trim() || undefined;
  return { agentId, ...(title ? { title } : {}), ...(task ? { task } : {}), ...(profile ? { profile } : {}), ...(model ? { model } : {}), background: started['isBackground'] === true };
}

function readDevinEnd(update: JsonObject): { readonly agentId: string; readonly success: boolean; readonly summary?: string } | undefined {
  const completed = metaEntry(update, DEVIN_COMPLETED_KEY);
  const agentId = asString(completed?.['agentId'])?.trim();
  if (!completed || !agentId) return undefined;
  const summary = asString(completed['summary'])?.trim() || undefined;
  // `success` is the report; without it, the line's own tool status says it.
  const success = typeof completed['success'] === 'boolean' ? completed['success'] : update['status'] !== 'failed';
  return { agentId, success, ...(summary ? { summary } : {}) };
}

/** The subagent an update belongs to (its `subagent_context`), unless it is the main agent's own. */
export function devinParentAgentOf(update: JsonObject): string | undefined {
  const parent = asString(metaEntry(update, DEVIN_CONTEXT_KEY)?.['parentAgentId'])?.trim();
  return parent && parent !== DEVIN_ROOT_AGENT ? parent : undefined;
}

/**
 * A lifecycle line as an ordinary tool call on the parent, keyed by the agentId: the start announces it
 * (running; the task is its prompt), the end reports it (the summary as its result, or its error).
 */
export function devinLifecycleUpdate(update: JsonObject): JsonObject | undefined {
  const start = readDevinStart(update);
  if (start) {
    return {
      ...update,
      sessionUpdate: 'tool_call',
      toolCallId: start.agentId,
      title: start.title ?? start.profile ?? t('Subagent'),
      kind: 'think',
      status: typeof update['status'] === 'string' ? update['status'] : 'in_progress',
      rawInput: { ...(start.title ? { description: start.title } : {}), ...(start.task ? { prompt: start.task } : {}), ...(start.profile ? { subagent_type: start.profile } : {}) },
    };
  }
  const end = readDevinEnd(update);
  if (!end) return undefined;
  const text = end.summary ? [{ type: 'content', content: { type: 'text', text: end.summary } }] : undefined;
  return {
    ...update,
    sessionUpdate: 'tool_call_update',
    toolCallId: end.agentId,
    status: end.success ? 'completed' : 'failed',
    ...(text ? { content: text } : {}),
    ...(end.summary && !end.success ? { rawOutput: { error: end.summary } } : {}),
  };
}
