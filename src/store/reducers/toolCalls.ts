// Tool calls (`tool_call` creates or upserts, `tool_call_update` patches), and the subagents some dialects
// show only through a tool call: detecting the launch, creating the child, keeping it in step with the call.
import type { SessionLink, SessionRecord, SessionStateInfo, ToolCallEntry, ToolCallRecord } from '../model';
import { isToolCallOpen, stateFromToolStatus } from '../stateRules';
import { isWorking } from '../../presentation/sessionState';
import { subagentTitle, TOOL_LINKS } from '../sessionTree';
import type { ReducerContext } from '../reducerContext';
import {
  backgroundTaskId,
  codexSpawnedThreads,
  codexThreadStates,
  detectSubagentToolCall,
  isBackgroundLaunch,
  isProgressCopy,
  remoteChildSessionId,
  taskResultText,
  toolContentTexts,
} from '../subagentDialects';
import type { SubagentSpawn } from '../subagentSpawn';
import { asString, isObject, type JsonObject } from '../wireMessage';
import { readTaskResultUsage } from '../usage';
import { addUserPrompt, appendChunk } from './messages';
import { noteUsage } from './usage';
import { t } from '../../presentation/l10n';

export function applyToolCall(parts: ReducerContext, wire: SessionRecord, session: SessionRecord, update: JsonObject, kind: 'tool_call' | 'tool_call_update'): void {
  const { core, tree } = parts;
  const toolCallId = asString(update['toolCallId']);
  if (!toolCallId) {
    core.diagnose('invalid-message', `${kind} without a toolCallId`);
    return;
  }
  let record = session.toolCalls[toolCallId];
  if (!record) {
    // v2 has no `tool_call`: an update with a new id creates the call.
    if (kind === 'tool_call_update' && parts.protocol.version === 1) core.diagnose('unknown-tool-call', `tool_call_update for unknown tool call ${toolCallId} (created)`);
    record = { toolCallId, title: '', kind: 'other', status: 'pending', content: NO_ITEMS, locations: NO_ITEMS };
    session.toolCalls[toolCallId] = record;
    session.toolCallOrder.push(toolCallId);
    const entry: ToolCallEntry = { kind: 'toolCall', id: `tool:${toolCallId}`, rev: core.rev, at: core.at, toolCallId };
    core.indexOf(session).toolEntries.set(toolCallId, entry);
    core.addEntry(session, entry);
    tree.registerToolCall(wire.id, session.id, toolCallId);
    core.toolCallCount++;
  }
  const status = record.status;
  patchToolCall(record, update);
  if (record.status !== status) core.noteToolCallStatus(session.id, record);
  const entry = core.indexOf(session).toolEntries.get(toolCallId);
  if (entry) core.touchEntry(session, entry);

  let spawned = false;
  if (!record.childSessionId) {
    const detected = detectSubagentToolCall({ ...update, rawInput: record.rawInput, title: record.title, kind: record.kind });
    const spawn = detected ? parts.spawns.refineSpawn(detected, update) : undefined;
    if (spawn) {
      parts.spawns.noteSpawn(wire.id, record.toolCallId, spawn);
      spawnFromToolCall(parts, session, record, spawn);
    }
    spawned = record.childSessionId !== undefined;
  }
  syncChildWithToolCall(parts, record, update, spawned);
  applyThreadStates(parts, session, record);
  // A launching call's result may say what its subagent spent (Claude, qwen) or ran on (opencode).
  const child = record.childSessionId ? core.session(record.childSessionId) : undefined;
  if (child) noteUsage(parts, child, readTaskResultUsage(update));
}

/**
 * Codex without the subagent capability: its collab calls (spawnAgent, wait, …) report each child thread's
 * state and final message; that report, not the spawn call's own status, is the child's state.
 */
function applyThreadStates(parts: ReducerContext, session: SessionRecord, record: ToolCallRecord): void {
  const { core, tree } = parts;
  const spawned = record.childSessionId ? core.session(record.childSessionId) : undefined;
  if (spawned?.origin === 'virtual' && spawned.remoteSessionId === null) {
    const threadId = codexSpawnedThreads(record)[0];
    if (threadId) {
      spawned.remoteSessionId = threadId;
      core.touch(spawned);
    }
  }
  for (const report of codexThreadStates(record)) {
    const child = tree.sessionByRemoteId(report.threadId);
    if (!child || child.origin !== 'virtual' || !tree.isAncestor(session.id, child.id)) continue;
    core.setState(child, report.state, 'agent');
    if (report.message && !child.entries.some((e) => e.kind === 'message' && e.role === 'agent')) {
      appendChunk(parts, child, 'agent', { content: { type: 'text', text: report.message } });
    }
  }
}

/**
 * Applies the fields an update carries: omitted fields keep, `null` clears (back to the protocol default),
 * a value replaces (`content`/`locations` whole).
 */
function patchToolCall(record: ToolCallRecord, update: JsonObject): void {
  if (typeof update['title'] === 'string' || update['title'] === null) record.title = update['title'] ?? '';
  if (typeof update['kind'] === 'string' || update['kind'] === null) record.kind = update['kind'] ?? 'other';
  if (typeof update['status'] === 'string') {
    record.status = update['status'];
    // The agent spoke about this call again: it is no longer only "stopped with the turn".
    delete record.stoppedByTurn;
  }
  if (typeof update['name'] === 'string') record.name = update['name'];
  else if (update['name'] === null) delete record.name;
  if (isProgressCopy(update)) {
    record.progress = toolContentTexts(update['content'])[0] ?? record.progress;
  } else {
    if (Array.isArray(update['content'])) record.content = objectsOf(update['content']) as unknown as ToolCallRecord['content'];
    else if (update['content'] === null) record.content = NO_ITEMS;
    if (Array.isArray(update['locations'])) record.locations = objectsOf(update['locations']) as unknown as ToolCallRecord['locations'];
    else if (update['locations'] === null) record.locations = NO_ITEMS;
  }
  if ('capabilities' in update) record.capabilities = isObject(update['capabilities']) ? update['capabilities'] : null;
  // Progress text describes a running call only.
  if (!isToolCallOpen(record.status)) delete record.progress;
  if ('rawInput' in update && !(isObject(update['rawInput']) && Object.keys(update['rawInput']).length === 0 && record.rawInput)) {
    record.rawInput = update['rawInput'];
  }
  if ('rawOutput' in update) record.rawOutput = update['rawOutput'];
  if (isObject(update['_meta'])) record.meta = { ...record.meta, ...update['_meta'] };
}

/** v2 `tool_call_content_chunk`: one more content item at the end of a call's content. */
export function appendToolCallContent(parts: ReducerContext, wire: SessionRecord, session: SessionRecord, update: JsonObject): void {
  const { core } = parts;
  const toolCallId = asString(update['toolCallId']);
  if (!toolCallId || !isObject(update['content'])) {
    core.diagnose('invalid-message', 'tool_call_content_chunk without a toolCallId or content');
    return;
  }
  // Like every v2 upsert, a new id starts a call at the protocol defaults.
  if (!session.toolCalls[toolCallId]) applyToolCall(parts, wire, session, { toolCallId }, 'tool_call_update');
  const record = session.toolCalls[toolCallId]!;
  // A new list: content lists are shared (the frozen empty one, or the update's own), never changed in place.
  record.content = [...record.content, update['content'] as unknown as ToolCallRecord['content'][number]];
  const entry = core.indexOf(session).toolEntries.get(record.toolCallId);
  if (entry) core.touchEntry(session, entry);
}

/**
 * Shared by every call that has no content or locations yet: records replace these lists, never change
 * them in place. Frozen, so a change in place would throw instead of reaching every call.
 */
const NO_ITEMS: never[] = Object.freeze([]) as unknown as never[];

/** The list's objects: the list itself when it has nothing else (a filtered copy costs a fresh backing store per update). */
function objectsOf(list: unknown[]): unknown[] {
  return list.every(isObject) ? list : list.filter(isObject);
}

function spawnFromToolCall(parts: ReducerContext, session: SessionRecord, record: ToolCallRecord, spawn: SubagentSpawn): void {
  let child: SessionRecord | undefined;
  if (spawn.childSessionId) {
    child = parts.tree.adoptChild(session.id, spawn.childSessionId, spawn.link, record.toolCallId);
    if (child) {
      record.childSessionId = child.id;
      if (spawn.subagentType && !child.subagentType) child.subagentType = spawn.subagentType;
      if (child.title === null) child.title = subagentTitle(record);
      parts.core.touch(child);
    }
  } else child = ensureVirtualChild(parts, session.id, record.toolCallId, spawn.link, spawn.subagentType);
  // Launched to run in the background: it outlives the parent's turn until its own end is reported.
  if (child && spawn.background && !child.background && isToolCallOpen(record.status)) {
    child.background = true;
    parts.core.touch(child);
  }
}

/** A child reconstructed from its parent's tool call, with the task's prompt as its first message. */
export function ensureVirtualChild(parts: ReducerContext, parentId: string, toolCallId: string, link: SessionLink, subagentType?: string): SessionRecord {
  const existed = parts.core.sessions.has(parts.tree.currentId(`${parentId}#${toolCallId}`));
  const child = parts.tree.ensureVirtualChild(parentId, toolCallId, link, subagentType);
  if (existed) return child;
  const record = parts.core.session(parentId)?.toolCalls[toolCallId];
  const prompt = record && isObject(record.rawInput) ? asString(record.rawInput['prompt']) : undefined;
  if (prompt) {
    child.description = firstLine(prompt);
    addUserPrompt(parts, child, [{ type: 'text', text: prompt }]);
  }
  return child;
}

/** Keeps a child reconstructed from a tool call in step with that call (title, state, remote id, background). */
function syncChildWithToolCall(parts: ReducerContext, record: ToolCallRecord, update: JsonObject, spawned: boolean): void {
  const { core } = parts;
  const child = record.childSessionId ? core.session(record.childSessionId) : undefined;
  if (!child) return;
  const remote = remoteChildSessionId(update);
  if (remote && child.remoteSessionId !== remote) {
    child.remoteSessionId = remote;
    core.touch(child);
  }
  // Children known only through a tool call (virtual, or a real id named by zed/draft/AgentPool metadata that
  // never report a state of their own) follow that call's status: it is the agent's only report on them.
  const followsToolCall = child.origin === 'virtual' || (TOOL_LINKS.has(child.link) && !child.stateReported);
  if (!followsToolCall) return;
  if (child.origin === 'virtual') {
    const title = subagentTitle(record);
    if (title && title !== child.title) {
      child.title = title;
      core.touch(child);
    }
  }
  // Only a status report moves the child: a later update without one (metadata, progress) keeps what the
  // child was last told, e.g. "cancelled with the turn". Codex reports its threads' states itself.
  if (!spawned && !('status' in update)) return;
  if (codexThreadStates(record).length > 0) return;
  if (child.state.state === 'requires_action' && isToolCallOpen(record.status)) return;
  if (record.status === 'completed' && isBackgroundLaunch(record)) {
    // The launch returned while the child goes on working: running until its end is reported.
    const taskId = backgroundTaskId(record);
    if (taskId) parts.backgroundTasks.set(taskId, child.id);
    markBackground(parts, child);
    return;
  }
  // A call that ended ends the background run; one still open keeps a launch's background flag.
  if (child.background && !isToolCallOpen(record.status)) {
    child.background = false;
    core.touch(child);
  }
  const state = withToolError(stateFromToolStatus(record.status), record);
  core.setState(child, state.stopReason === 'error' && followsUserCancel(parts, child) ? cancelledWithWords(record) : state, 'tool-call');
  if (child.origin === 'virtual' && record.status === 'completed') showTaskResult(parts, child, record);
}

/**
 * A child seen only through its call gets the call's result as its final message when it sent no text of
 * its own (opencode's task result, Copilot without events, Claude's older adapter); an empty result is said.
 */
function showTaskResult(parts: ReducerContext, child: SessionRecord, record: ToolCallRecord): void {
  if (child.entries.some((e) => (e.kind === 'message' && e.role === 'agent') || (e.kind === 'notice' && e.id.startsWith('noreport:')))) return;
  const result = taskResultText(record);
  if (result) appendChunk(parts, child, 'agent', { content: { type: 'text', text: result } });
  else {
    parts.core.addEntry(child, {
      kind: 'notice',
      id: `noreport:${child.id}`,
      rev: parts.core.rev,
      at: parts.core.at,
      severity: 'info',
      title: t('No report'),
      description: t('The agent says this subagent finished, and sent nothing of what it did.'),
    });
  }
}

/**
 * The user's cancel of this child or of an ancestor came before its end: a cancel in flight, or the turn it
 * ran under already ended cancelled. opencode, gemini and qwen report such a child as a failed call.
 */
function followsUserCancel(parts: ReducerContext, child: SessionRecord): boolean {
  for (let session: SessionRecord | undefined = child; session; session = session.parentId ? parts.core.session(session.parentId) : undefined) {
    if (session.cancelRequestedAt !== null || (session.state.state === 'idle' && session.state.stopReason === 'cancelled')) return true;
    // An ancestor at work again started a new turn: that cancel is over.
    if (session !== child && isWorking(session.state)) return false;
  }
  return false;
}

/** Cancelled, keeping what the agent said of the end (opencode `rawOutput.error`, else the call's text). */
function cancelledWithWords(record: ToolCallRecord): SessionStateInfo {
  const words = toolErrorText(record) ?? toolContentTexts(record.content).find((text) => text.trim() !== '');
  return { state: 'idle', stopReason: 'cancelled', ...(words ? { reported: words.trim() } : {}) };
}

/** A failed launch call's error text (opencode `rawOutput.error`) is the child's error. */
function withToolError(state: SessionStateInfo, record: ToolCallRecord): SessionStateInfo {
  const message = toolErrorText(record);
  return state.stopReason === 'error' && message ? { ...state, error: { message } } : state;
}

/** The error a launch call's output names (opencode `rawOutput.error`). */
function toolErrorText(record: ToolCallRecord): string | undefined {
  return isObject(record.rawOutput) ? asString(record.rawOutput['error']) : undefined;
}

/** A child still working after its launch call completed. */
export function markBackground(parts: ReducerContext, child: SessionRecord): void {
  if (!child.background) {
    child.background = true;
    parts.core.touch(child);
  }
  parts.core.setState(child, { state: 'running' }, 'tool-call');
}

function firstLine(text: string, max = 120): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A background subagent's end, reported by the agent (qwen's background notification). */
export function endBackgroundTask(parts: ReducerContext, taskId: string, status: string): void {
  const child = parts.core.session(parts.tree.currentId(parts.backgroundTasks.get(taskId) ?? ''));
  if (!child?.background) return;
  const state = BACKGROUND_END_STATES[status];
  if (!state) return;
  child.background = false;
  parts.backgroundTasks.delete(taskId);
  parts.core.setState(child, state, 'agent');
}

const BACKGROUND_END_STATES: Readonly<Record<string, { state: string; stopReason: string }>> = Object.assign(Object.create(null) as object, {
  completed: { state: 'idle', stopReason: 'end_turn' },
  failed: { state: 'idle', stopReason: 'error' },
  cancelled: { state: 'idle', stopReason: 'cancelled' },
});
