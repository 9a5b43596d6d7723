// The newer dialects on the store (their wire shapes are in devin.ts, sudocode.ts, cursor.ts, omp.ts):
// lifecycle lines on the parent's session become ordinary tool calls plus the child's details; extension
// methods name, describe and report children. What the sessionStore facade hands over: the parts, and a way
// to apply an ordinary session update (owner resolution and all) on a wire session.
import type { SessionRecord, SessionStateInfo } from '../model';
import { addUserPrompt, appendChunk } from '../reducers/messages';
import { ensureVirtualChild } from '../reducers/toolCalls';
import { UNCONFIRMED } from '../sessionState';
import type { StoreParts } from '../storeParts';
import { asString, isObject, type JsonObject } from '../wireMessage';
import { CURSOR_TASK_METHOD, readCursorTask } from './cursor';
import { devinLifecycleUpdate, readDevinStart } from './devin';
import { OMP_AGENTS_LIST, OMP_AGENTS_MESSAGES, OMP_AGENTS_PROGRESS, OMP_AGENTS_UPDATE, readOmpMessages, readOmpProgress, readOmpRoster, type OmpAgent } from './omp';
import { readSudocodeSpawn, type SudocodeSpawn } from './sudocode';

/** Applies an ordinary session update that arrived on this wire session id (owner resolution included). */
export type UpdateSink = (wireSessionId: string, update: JsonObject) => void;

// ---- lifecycle lines on the parent session (Devin, sudocode) ----------------------------------------------

/** Devin's and sudocode's lifecycle lines; false for every other update (the caller applies it as usual). */
export function applyLifecycleUpdate(parts: StoreParts, wire: SessionRecord, update: JsonObject, apply: UpdateSink): boolean {
  const devin = devinLifecycleUpdate(update);
  if (devin) {
    apply(wire.id, devin);
    const start = readDevinStart(update);
    const child = start ? childOfCall(parts, wire.id, start.agentId) : undefined;
    if (start && child) describeChild(parts, child, { ...(start.model ? { model: start.model } : {}), background: start.background });
    return true;
  }
  const sudocode = readSudocodeSpawn(update);
  if (!sudocode || typeof update['toolCallId'] !== 'string') return false;
  apply(wire.id, update);
  const child = childOfCall(parts, wire.id, update['toolCallId']);
  if (child) applySudocodeSpawn(parts, child, sudocode);
  return true;
}

function applySudocodeSpawn(parts: StoreParts, child: SessionRecord, spawn: SudocodeSpawn): void {
  // The call was first seen without the marker (a plain Agent call): the marker says whose it is.
  if (child.link === 'opaque-tool') child.link = 'sudocode-meta';
  if (child.title === null && (spawn.name ?? spawn.description)) child.title = spawn.name ?? spawn.description ?? null;
  if (child.description === null && spawn.description) child.description = spawn.description;
  if (child.subagentType === null && spawn.subagentType) child.subagentType = spawn.subagentType;
  const finished = spawn.state !== undefined && spawn.state.state !== 'running';
  describeChild(parts, child, { ...(spawn.model ? { model: spawn.model } : {}), background: spawn.background && !finished });
  if (!spawn.state) return;
  if (finished && child.background) child.background = false;
  parts.core.setState(child, spawn.state, 'agent');
}

/** The child a tool call seen on this wire session launched. */
function childOfCall(parts: StoreParts, wireId: string, toolCallId: string): SessionRecord | undefined {
  const owner = parts.core.session(parts.tree.toolOwner(wireId, toolCallId) ?? wireId);
  const childId = owner?.toolCalls[toolCallId]?.childSessionId;
  return childId ? parts.core.session(parts.tree.currentId(childId)) : undefined;
}

/** The model the agent names for a child (kept in its `meta`), and whether it works in the background. */
function describeChild(parts: StoreParts, child: SessionRecord, details: { readonly model?: string; readonly background?: boolean; readonly agentId?: string }): void {
  if (details.model && child.meta?.['model'] !== details.model) child.meta = { ...child.meta, model: details.model };
  if (details.agentId && child.meta?.['agentId'] !== details.agentId) child.meta = { ...child.meta, agentId: details.agentId };
  if (details.background && !child.background && child.state.state !== 'idle') child.background = true;
  parts.core.touch(child);
}

// ---- extension methods (Cursor, oh-my-pi) -----------------------------------------------------------------

/** Agent-to-client methods read here, as notifications or requests; none of them is "unknown". */
export function applyExtensionMessage(parts: StoreParts, method: string, params: JsonObject, apply: UpdateSink): boolean {
  switch (method) {
    case CURSOR_TASK_METHOD:
    case `_${CURSOR_TASK_METHOD}`:
      applyCursorTask(parts, params, apply);
      return true;
    case OMP_AGENTS_UPDATE:
      for (const agent of readOmpRoster(params)) applyOmpAgent(parts, agent);
      return true;
    case OMP_AGENTS_PROGRESS: {
      const agent = readOmpProgress(params);
      if (agent) applyOmpAgent(parts, agent);
      return true;
    }
    default:
      return false;
  }
}

/** Results of the client's own extension requests (oh-my-pi's roster and transcripts). */
export function applyExtensionResult(parts: StoreParts, method: string, params: JsonObject, body: JsonObject): boolean {
  if (method === OMP_AGENTS_LIST) {
    for (const agent of readOmpRoster(body)) applyOmpAgent(parts, agent);
    return true;
  }
  if (method === OMP_AGENTS_MESSAGES) {
    applyOmpMessages(parts, params, body);
    return true;
  }
  return false;
}

function applyCursorTask(parts: StoreParts, params: JsonObject, apply: UpdateSink): void {
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
    apply(wireId, { sessionUpdate: 'tool_call', toolCallId: task.toolCallId, title: 'Task', kind: 'think', status: 'pending', rawInput });
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

function onlyRoot(parts: StoreParts): SessionRecord | undefined {
  const roots = parts.tree.roots.map((id) => parts.core.session(id)).filter((s): s is SessionRecord => s !== undefined);
  if (roots.length === 1) return roots[0];
  const prompted = roots.filter((s) => s.activePromptId !== null);
  return prompted.length === 1 ? prompted[0] : undefined;
}

// oh-my-pi: its subagents are known by registry id only; this remembers each one's row, per store.
const ompAgents = new WeakMap<StoreParts, { readonly rows: Map<string, string>; readonly readUpTo: Map<string, number>; ambiguous: boolean }>();

function ompState(parts: StoreParts): { readonly rows: Map<string, string>; readonly readUpTo: Map<string, number>; ambiguous: boolean } {
  let state = ompAgents.get(parts);
  if (!state) ompAgents.set(parts, (state = { rows: new Map(), readUpTo: new Map(), ambiguous: false }));
  return state;
}

function ompRow(parts: StoreParts, agentId: string): SessionRecord | undefined {
  const id = ompState(parts).rows.get(agentId);
  return id ? parts.core.session(parts.tree.currentId(id)) : undefined;
}

function applyOmpAgent(parts: StoreParts, agent: OmpAgent): void {
  const { core, tree } = parts;
  const state = ompState(parts);
  let child = ompRow(parts, agent.id);
  if (!child) {
    // The roster names no ACP session: a subagent of the main agent goes under the one root that can be its.
    const parent = (agent.parentId ? ompRow(parts, agent.parentId) : undefined) ?? onlyRoot(parts);
    if (!parent) {
      if (!state.ambiguous) core.diagnose('ambiguous-parent', `oh-my-pi subagent ${agent.id}: its roster names no session, and no single root is its; not attached`);
      state.ambiguous = true;
      return;
    }
    child = tree.ensureVirtualChild(parent.id, `omp:${agent.id}`, 'omp-agents', agent.agentType);
    state.rows.set(agent.id, child.id);
    // Nothing is known of its work until the agent reports a state: not "running" by default.
    const first: SessionStateInfo = agent.state ?? UNCONFIRMED;
    child.state = first;
    child.stateHistory[0] = { ...child.stateHistory[0]!, state: first.state, ...(first.stopReason ? { stopReason: first.stopReason } : {}), source: 'agent' };
    core.noteSessionState(child);
  }
  if (agent.description && child.title !== agent.description) child.title = agent.description;
  if (agent.displayName && child.description !== agent.displayName) child.description = agent.displayName;
  if (agent.agentType && child.subagentType === null) child.subagentType = agent.agentType;
  if (agent.task && !child.entries.some((e) => e.kind === 'message' && e.role === 'user')) addUserPrompt(parts, child, [{ type: 'text', text: agent.task }]);
  describeChild(parts, child, agent.model ? { model: agent.model } : {});
  if (agent.state) core.setState(child, agent.state, 'agent');
}

function applyOmpMessages(parts: StoreParts, params: JsonObject, body: JsonObject): void {
  const agentId = asString(params['agentId']);
  const child = agentId ? ompRow(parts, agentId) : undefined;
  if (!agentId || !child) return;
  const from = typeof params['fromByte'] === 'number' ? params['fromByte'] : 0;
  const next = typeof body['nextByte'] === 'number' ? body['nextByte'] : undefined;
  const readUpTo = ompState(parts).readUpTo;
  // A page read before (a repeated poll) adds nothing.
  if (next === undefined || next <= from || from < (readUpTo.get(agentId) ?? 0)) return;
  readUpTo.set(agentId, next);
  readOmpMessages(body).forEach((message, i) => {
    if (message.role === 'user') {
      if (!child.entries.some((e) => e.kind === 'message' && e.role === 'user' && e.text === message.text)) addUserPrompt(parts, child, [{ type: 'text', text: message.text }]);
      return;
    }
    appendChunk(parts, child, message.role, { content: { type: 'text', text: message.text }, messageId: `omp:${from}:${i}` });
  });
}

