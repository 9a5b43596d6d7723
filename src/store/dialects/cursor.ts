// Cursor CLI (`agent acp`): a subagent is a generic `Task` tool call (title "Task" or name "Task"/"agent", the
// prompt in `rawInput`), and Cursor's extension method `cursor/task` (https://cursor.com/docs/cli/acp, "Cursor
// extension methods") reports the same task by its `toolCallId`, with `description`, `prompt`, `subagentType`,
// `model`, `agentId` and `durationMs`. Clients read it as a notification or answer it as a request (both seen
// in clients of Cursor); nothing in it says the task ended, so its child's state stays the Task call's.
// Pure readers of the wire shapes.
import { asString, isObject, type JsonObject } from '../wireMessage';

export const CURSOR_TASK_METHOD = 'cursor/task';

export interface CursorTask {
  readonly toolCallId: string;
  readonly sessionId?: string;
  readonly description?: string;
  readonly prompt?: string;
  readonly subagentType?: string;
  readonly model?: string;
  readonly agentId?: string;
}

function text(value: unknown): string | undefined {
  return asString(value)?.trim() || undefined;
}

export function readCursorTask(params: JsonObject): CursorTask | undefined {
  const toolCallId = text(params['toolCallId']);
  if (!toolCallId) return undefined;
  const fields = {
    sessionId: text(params['sessionId']),
    description: text(params['description']),
    prompt: text(params['prompt']),
    subagentType: text(params['subagentType']) ?? text(params['subagent_type']),
    model: text(params['model']),
    agentId: text(params['agentId']),
  };
  return { toolCallId, ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) };
}

const TASK_TOOL_NAMES = new Set(['Task', 'agent']);

/** A generic `Task` / `agent` tool call that carries the subagent's prompt. */
export function isGenericTaskCall(update: JsonObject): boolean {
  const rawInput = isObject(update['rawInput']) ? update['rawInput'] : undefined;
  if (typeof rawInput?.['prompt'] !== 'string') return false;
  const title = asString(update['title']);
  const name = asString(update['name']);
  return (title !== undefined && TASK_TOOL_NAMES.has(title)) || (name !== undefined && TASK_TOOL_NAMES.has(name));
}
