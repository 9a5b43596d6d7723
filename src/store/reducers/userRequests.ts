// Requests the agent sends the client: permission and elicitation entries (pending until answered) and the
// client-side terminals whose output the client read.
import { ClientMethod } from '../../protocol/acpMethods';
import type { ElicitationEntry, PermissionEntry, PermissionOption, SessionRecord, ToolCallRecord } from '../model';
import type { ShownCommand } from '../../protocol/transcript';
import type { PendingRequest } from '../requestLedger';
import type { ReducerContext } from '../reducerContext';
import { resolveRequestOwner } from '../updateOwner';
import { isToolCallOpen } from '../stateRules';
import { asString, isObject, type JsonObject } from '../wireMessage';
import { applyToolCall, ensureVirtualChild } from './toolCalls';
import { infersRequiresAction, leaveRequiresAction } from './turns';
import { t } from '../../presentation/l10n';

export function openPermission(parts: ReducerContext, wire: SessionRecord, request: PendingRequest, id: string | number, params: JsonObject): void {
  const { core, tree } = parts;
  const v2 = parts.protocol.version === 2;
  const toolCall = permissionToolCall(params, v2);
  const owner = resolveRequestOwner(wire, toolCall, tree);
  if (owner.kind === 'virtual' && owner.unknownParentCall) {
    core.diagnose('unknown-tool-call', `permission request names parent tool call ${owner.toolCallId}, which was never announced on ${wire.id}`);
  }
  const target = owner.kind === 'session' ? (core.session(owner.sessionId) ?? wire) : ensureVirtualChild(parts, owner.parentId, owner.toolCallId, owner.link, owner.subagentType);
  const toolCallId = asString(toolCall['toolCallId']);
  const stored = toolCallId ? target.toolCalls[toolCallId] : undefined;
  // v1's toolCall is an update of the call; v2's subject is a snapshot that can lag behind the stream, so it
  // only fills in what the stored call does not know yet and never moves its status.
  if (stored) applyToolCall(parts, wire, target, v2 ? missingFields(stored, toolCall) : toolCall, 'tool_call_update');
  const description = v2 ? asString(params['description']) : undefined;
  // What the prompt shows, taken now: an allow covers this, whatever the agent later makes of the call.
  const toolKind = stored?.kind ?? asString(toolCall['kind']);
  const command = commandOf(stored ? stored.rawInput : toolCall['rawInput']);
  const entry: PermissionEntry = {
    kind: 'permission',
    id: core.nextEntryId('perm'),
    rev: core.rev,
    at: core.at,
    requestId: String(id),
    ...(toolCallId ? { toolCallId } : {}),
    title: (v2 ? asString(params['title']) : undefined) ?? asString(toolCall['title']) ?? stored?.title ?? t('Permission requested'),
    ...(description ? { description } : {}),
    options: readOptions(params['options']),
    ...(toolKind ? { toolKind } : {}),
    ...(command ? { command } : {}),
    outcome: 'pending',
  };
  trackUserRequest(parts, target, request, entry);
  if (infersRequiresAction(parts, target)) core.setState(target, { state: 'requires_action' }, 'client');
}

/** The tool call a permission is about: v1 `toolCall`; v2 `subject: {type: "tool_call", toolCall}` (or a command's toolCallId). */
function permissionToolCall(params: JsonObject, v2: boolean): JsonObject {
  if (!v2) return isObject(params['toolCall']) ? params['toolCall'] : {};
  const subject = isObject(params['subject']) ? params['subject'] : {};
  if (subject['type'] === 'tool_call' && isObject(subject['toolCall'])) return subject['toolCall'];
  const toolCallId = asString(subject['toolCallId']);
  return toolCallId ? { toolCallId } : {};
}

/** The command in a tool call's raw input (`command`: a shell line, or an argv array such as Codex sends). */
function commandOf(rawInput: unknown): ShownCommand | undefined {
  const command = isObject(rawInput) ? rawInput['command'] : undefined;
  if (typeof command === 'string') return command.trim() ? command : undefined;
  if (Array.isArray(command) && command.length > 0 && command.every((part) => typeof part === 'string')) return [...command] as string[];
  return undefined;
}

/** The subject's fields the stored call still lacks (it keeps what the stream told it, status above all). */
function missingFields(stored: ToolCallRecord, subject: JsonObject): JsonObject {
  const patch: JsonObject = { toolCallId: stored.toolCallId };
  if (stored.title === '' && typeof subject['title'] === 'string') patch['title'] = subject['title'];
  if (stored.kind === 'other' && typeof subject['kind'] === 'string') patch['kind'] = subject['kind'];
  if (stored.rawInput === undefined && subject['rawInput'] !== undefined) patch['rawInput'] = subject['rawInput'];
  if (stored.locations.length === 0 && Array.isArray(subject['locations'])) patch['locations'] = subject['locations'];
  if (stored.content.length === 0 && Array.isArray(subject['content'])) patch['content'] = subject['content'];
  return patch;
}

export function openElicitation(parts: ReducerContext, wire: SessionRecord, request: PendingRequest, id: string | number, params: JsonObject): void {
  const entry: ElicitationEntry = {
    kind: 'elicitation',
    id: parts.core.nextEntryId('elicit'),
    rev: parts.core.rev,
    at: parts.core.at,
    requestId: String(id),
    message: asString(params['message']) ?? '',
    mode: asString(params['mode']) ?? 'form',
    outcome: 'pending',
  };
  trackUserRequest(parts, wire, request, entry);
}

/** The client answered a request of the agent's. */
export function applyClientResult(parts: ReducerContext, request: PendingRequest, body: JsonObject): void {
  const { core } = parts;
  const session = request.sessionId ? core.session(request.sessionId) : undefined;
  if (!session) return;
  const entry = request.entry;
  if (entry && entry.outcome === 'pending') settleUserRequest(parts, session);
  if (entry?.kind === 'permission') {
    const outcome = isObject(body['outcome']) ? body['outcome'] : {};
    if (outcome['outcome'] === 'selected') {
      entry.outcome = 'selected';
      const optionId = asString(outcome['optionId']);
      if (optionId) entry.optionId = optionId;
    } else entry.outcome = 'cancelled';
    core.touchEntry(session, entry);
    leaveRequiresAction(parts, session);
    return;
  }
  if (entry?.kind === 'elicitation') {
    const action = asString(body['action']);
    entry.outcome = action === 'accept' || action === 'decline' ? action : 'cancel';
    core.touchEntry(session, entry);
    return;
  }
  if (request.method === ClientMethod.fsWriteTextFile) recordFileWrite(parts, session, request.params);
  else applyTerminalResult(parts, session, request, body);
}

/** The client wrote a file for the session: a fact the session's Changes list is made of. */
function recordFileWrite(parts: ReducerContext, wire: SessionRecord, params: JsonObject): void {
  const path = asString(params['path']);
  const content = params['content'];
  if (!path || typeof content !== 'string') return;
  const writer = virtualWriterOf(parts, wire, path) ?? wire;
  writer.fileWrites.push({ path, content, at: parts.core.at });
  parts.core.touch(writer);
}

/**
 * Subagents known only through their parent (qwen, Claude) write under the parent's session id; the write
 * belongs to the one whose open tool call names that file. Without such a call it stays the wire session's.
 */
function virtualWriterOf(parts: ReducerContext, wire: SessionRecord, path: string): SessionRecord | undefined {
  let writer: SessionRecord | undefined;
  for (const session of parts.tree.preOrder([wire.id])) {
    if (session.origin !== 'virtual') continue;
    const names = Object.values(session.toolCalls).some(
      (call) => isToolCallOpen(call.status) && (call.locations.some((l) => l.path === path) || call.content.some((item) => item.type === 'diff' && item['path'] === path)),
    );
    if (names) writer = session;
  }
  return writer;
}

/** The client answered an agent request with an error: a pending question in the chat failed. */
export function failUserRequest(parts: ReducerContext, request: PendingRequest): void {
  if (!request.entry || request.entry.outcome !== 'pending') return;
  request.entry.outcome = 'failed';
  const session = request.sessionId ? parts.core.session(request.sessionId) : undefined;
  if (!session) return;
  settleUserRequest(parts, session);
  parts.core.touchEntry(session, request.entry);
  leaveRequiresAction(parts, session);
}

/** The connection went away: questions still pending can no longer be answered. */
export function failAllUserRequests(parts: ReducerContext, session: SessionRecord): void {
  if (session.awaitingUser === 0) return;
  for (const entry of session.entries) {
    if ((entry.kind === 'permission' || entry.kind === 'elicitation') && entry.outcome === 'pending') {
      entry.outcome = 'failed';
      parts.core.touchEntry(session, entry);
    }
  }
  session.awaitingUser = 0;
}

/** A permission or elicitation now waits for the user in this session's transcript. */
function trackUserRequest(parts: ReducerContext, session: SessionRecord, request: PendingRequest, entry: PermissionEntry | ElicitationEntry): void {
  parts.core.addEntry(session, entry);
  request.sessionId = session.id;
  request.entry = entry;
  session.awaitingUser++;
  parts.core.touch(session);
}

function settleUserRequest(parts: ReducerContext, session: SessionRecord): void {
  if (session.awaitingUser > 0) {
    session.awaitingUser--;
    parts.core.touch(session);
  }
}

function applyTerminalResult(parts: ReducerContext, session: SessionRecord, request: PendingRequest, body: JsonObject): void {
  const terminalId = asString(body['terminalId']) ?? asString(request.params['terminalId']);
  if (!terminalId) return;
  if (request.method === ClientMethod.terminalCreate) {
    session.terminals[terminalId] = {
      terminalId,
      command: asString(request.params['command']) ?? '',
      args: Array.isArray(request.params['args']) ? request.params['args'].filter((a): a is string => typeof a === 'string') : [],
      output: '',
      truncated: false,
      exitStatus: null,
    };
  } else {
    const terminal = session.terminals[terminalId];
    if (!terminal) return;
    if (request.method === ClientMethod.terminalOutput) {
      if (typeof body['output'] === 'string') terminal.output = body['output'];
      terminal.truncated = body['truncated'] === true;
      if (isObject(body['exitStatus'])) terminal.exitStatus = body['exitStatus'];
    } else if (request.method === ClientMethod.terminalWaitForExit) {
      terminal.exitStatus = body;
    } else return;
  }
  parts.core.touch(session);
}

function readOptions(raw: unknown): PermissionOption[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isObject).map((o) => ({
    optionId: asString(o['optionId']) ?? '',
    name: asString(o['name']) ?? asString(o['optionId']) ?? '',
    kind: asString(o['kind']) ?? 'allow_once',
  }));
}
