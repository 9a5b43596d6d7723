// The Cursor CLI dialect plug-in: its `cursor/task` extension method (see cursor.ts), as a notification or a
// request, names, describes and prompts the child of a generic `Task` call, announcing the call when it comes first.
import type { SessionRecord } from '../model';
import { addUserPrompt } from '../reducers/messages';
import { ensureVirtualChild } from '../reducers/toolCalls';
import type { ReducerContext } from '../reducerContext';
import type { JsonObject } from '../wireMessage';
import { describeChild, onlyRoot } from './children';
import { CURSOR_TASK_METHOD, readCursorTask } from './cursor';
import type { Dialect, DialectHost, UpdateSink } from './dialect';
import { t } from '../../presentation/l10n';

export function cursorDialect({ parts, applyOnWire }: DialectHost): Dialect {
  const onTask = (params: JsonObject): void => applyCursorTask(parts, params, applyOnWire);
  // Also with the `_` extension prefix an SDK may put in front of it.
  const methods = { [CURSOR_TASK_METHOD]: onTask, [`_${CURSOR_TASK_METHOD}`]: onTask };
  return { notifications: methods, requests: methods };
}

function applyCursorTask(parts: ReducerContext, params: JsonObject, apply: UpdateSink): void {
  const { core, tree } = parts;
  const task = readCursorTask(params);
  if (!task) {
    core.diagnose('invalid-message', `${CURSOR_TASK_METHOD} without a toolCallId`);
    return;
  }
  const known = task.sessionId ? tree.toolOwner(task.sessionId, task.toolCallId) : tree.parentOwnerFor(`${CURSOR_TASK_METHOD} ${task.toolCallId}`, task.toolCallId);
  let owner = known ? core.session(known) : undefined;
  if (!owner) {
    // The task before its tool call: it announces the call (not started: its own updates will say).
    const wireId = task.sessionId ?? onlyRoot(parts)?.id;
    if (!wireId) {
      core.diagnose('unknown-tool-call', `${CURSOR_TASK_METHOD} names tool call ${task.toolCallId}, which no session has`);
      return;
    }
    const rawInput = { ...(task.description ? { description: task.description } : {}), ...(task.prompt ? { prompt: task.prompt } : {}), ...(task.subagentType ? { subagentType: task.subagentType } : {}) };
    apply(wireId, { sessionUpdate: 'tool_call', toolCallId: task.toolCallId, title: t('Task'), kind: 'think', status: 'pending', rawInput });
    owner = core.session(tree.toolOwner(wireId, task.toolCallId) ?? wireId);
  }
  const record = owner?.toolCalls[task.toolCallId];
  if (!owner || !record) return;
  const child = record.childSessionId ? core.session(tree.currentId(record.childSessionId)) : ensureVirtualChild(parts, owner.id, task.toolCallId, 'cursor-task', task.subagentType);
  if (!child) return;
  if (child.link === 'opaque-tool') child.link = 'cursor-task';
  if (child.title === null && task.description) child.title = task.description;
  if (child.subagentType === null && task.subagentType) child.subagentType = task.subagentType;
  if (!child.entries.some((e) => e.kind === 'message' && e.role === 'user') && task.prompt) addUserPrompt(parts, child, [{ type: 'text', text: task.prompt }]);
  describeChild(parts, child, { ...(task.model ? { model: task.model } : {}), ...(task.agentId ? { agentId: task.agentId } : {}) });
}
