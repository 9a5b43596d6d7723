// Prompt turns: a prompt runs the session, its response (or error) ends the turn — in v1. In v2 the response
// only acknowledges the prompt (`{messageId}`) and the session's own `state_update` idle ends the turn. When a turn ends, work it
// left open ends with it: tool calls the agent never closed show as stopped with that turn, and children seen
// only through such a call end with that turn's stop reason — once, not again on a later turn.
import type { SessionRecord, SessionStateInfo, ToolCallRecord } from '../model';
import { endsWithParentTurn } from '../subagentDialects';
import { t } from '../../presentation/l10n';
import { isWorking, presentState } from '../../presentation/sessionState';
import { drivesTurns, isToolCallOpen } from '../stateRules';
import type { ReducerContext } from '../reducerContext';
import { isObject, type JsonObject } from '../wireMessage';
import { addUserPrompt } from './messages';
import { endSteers } from './steering';
import { addNotice } from './sessionDetails';

export function startPrompt(parts: ReducerContext, session: SessionRecord, promptKey: string, blocks: unknown[]): void {
  addUserPrompt(parts, session, blocks, true, parts.protocol.version === 2 ? promptKey : undefined);
  session.activePromptId = promptKey;
  session.promptUnanswered = true;
  // A prompt during a turn the agent started makes it the client's turn: the history says so.
  if (drivesTurns(session)) parts.core.setState(session, { state: 'running' }, 'client', inAgentStartedTurn(session));
}

/** The prompt's response (or its error) ends the turn. */
export function endPrompt(parts: ReducerContext, session: SessionRecord, promptKey: string, stopReason: string, errorMessage?: string): void {
  if (session.activePromptId === promptKey) {
    session.activePromptId = null;
    session.promptUnanswered = false;
  }
  if (drivesTurns(session)) {
    const state = { state: 'idle', stopReason, ...(errorMessage ? { error: { message: errorMessage } } : {}) };
    noteLateCancel(parts, session, state);
    parts.core.setState(session, state, 'agent');
  }
  endOpenWork(parts, session, stopReason);
}

/**
 * A state the agent reported for the session itself; an idle report ends its turn's open work (and, in v2,
 * the prompt in flight: idle is how a v2 turn ends). Reports repeat (a parent's mirror and the child's own,
 * in either order): applying the same state twice changes nothing.
 */
export function applyReportedState(parts: ReducerContext, session: SessionRecord, state: SessionStateInfo): void {
  session.stateReported = true;
  if (session.background && state.state !== 'running') session.background = false;
  noteLateCancel(parts, session, state);
  parts.core.setState(session, state, 'agent', inAgentStartedTurn(session));
  if (state.state !== 'idle') return;
  if (parts.protocol.version === 2 && session.activePromptId !== null) {
    session.activePromptId = null;
    session.promptUnanswered = false;
    parts.core.touch(session);
  }
  endOpenWork(parts, session, state.stopReason ?? 'idle');
}

/** Updates that are the agent at work (not bookkeeping such as commands, usage or titles). */
const AGENT_WORK = new Set(['agent_message_chunk', 'agent_thought_chunk', 'tool_call']);

/**
 * New work on a session the client prompts, with no prompt in flight: the agent started a turn by itself
 * (opencode after a background task ended, qwen's background notification). The session runs again, and its
 * history says who started it. Only the agent ends such a turn (a state it reports, qwen's
 * `_qwencode/end_turn`) or the client's next prompt: silence never does (the presentation may call it quiet).
 */
export function noteAgentStartedWork(parts: ReducerContext, session: SessionRecord, kind: string, update: JsonObject): void {
  if (!AGENT_WORK.has(kind) || !session.openedByClient || session.closed || session.activePromptId !== null || isWorking(session.state)) return;
  // session/load replays old turns the same way: that is history, not a new turn.
  if (parts.replaying.has(session.id)) return;
  const content = isObject(update['content']) ? update['content'] : undefined;
  if (kind !== 'tool_call' && !(typeof content?.['text'] === 'string' && content['text'] !== '')) return;
  parts.core.setState(session, { state: 'running' }, 'agent-started');
  endJobReportedByTurn(parts, session);
}

/**
 * opencode starts a turn of the parent by itself only when a background job ended: with one such job running
 * under this session, that job ended (how, the parent's reply says). With several, which one is unknown: they
 * keep running (the presentation says "No end reported" once they are quiet for long).
 */
function endJobReportedByTurn(parts: ReducerContext, session: SessionRecord): void {
  const jobs = session.childIds
    .map((id) => parts.core.session(id))
    .filter((child): child is SessionRecord => {
      const launch = child?.background === true ? launchOf(session, child) : undefined;
      return launch !== undefined && endsWithParentTurn(launch);
    });
  if (jobs.length !== 1) return;
  const job = jobs[0]!;
  job.background = false;
  parts.core.setState(job, { state: 'idle', stopReason: 'ended' }, 'turn');
}

function launchOf(parent: SessionRecord, child: SessionRecord): ToolCallRecord | undefined {
  return child.parentToolCallId ? parent.toolCalls[child.parentToolCallId] : undefined;
}

/** Running because the agent started work by itself, and nobody has said anything about it since. */
function inAgentStartedTurn(session: SessionRecord): boolean {
  return session.state.state === 'running' && session.stateHistory.at(-1)?.source === 'agent-started';
}

/**
 * The agent said the turn it started has ended (qwen's `_qwencode/end_turn` with its reason; codex's
 * `threadStatus` idle, which reports none).
 */
export function endAgentStartedTurn(parts: ReducerContext, session: SessionRecord, stopReason?: string): void {
  if (session.activePromptId !== null || !inAgentStartedTurn(session)) return;
  parts.core.setState(session, stopReason === undefined ? { state: 'idle' } : { state: 'idle', stopReason }, 'agent');
  endOpenWork(parts, session, stopReason ?? 'idle');
}

/**
 * The client cancelled and the agent answered with an end of another kind: the work had finished before the
 * cancel reached it. The state stays what the agent reported; the chat says the cancel came too late.
 */
function noteLateCancel(parts: ReducerContext, session: SessionRecord, state: SessionStateInfo): void {
  if (session.cancelRequestedAt === null || state.state !== 'idle' || state.stopReason === 'cancelled') return;
  const seconds = Math.max(0, (parts.core.at - session.cancelRequestedAt) / 1000).toFixed(1);
  addNotice(parts, session, 'info', t('Your cancel came too late'), t('The agent reported "{0}" {1} s after the cancel was sent: the work had ended before the cancel reached it.', presentState(state).label, seconds));
}

/** The client sent session/cancel: the session and its working descendants show "cancelling" until they report. */
export function noteCancelRequested(parts: ReducerContext, sessionId: string): void {
  for (const session of parts.tree.preOrder([sessionId])) {
    if (session.id !== sessionId && !isWorking(session.state)) continue;
    session.cancelRequestedAt = parts.core.at;
    parts.core.touch(session);
  }
}

/** Whether the client infers requires_action from a question it was asked (v1); a v2 agent reports it. */
export function infersRequiresAction(parts: ReducerContext, session: SessionRecord): boolean {
  return parts.protocol.version === 1 && drivesTurns(session);
}

/** The client set requires_action itself (sessions whose turns it drives): it ends when nothing waits any more. */
export function leaveRequiresAction(parts: ReducerContext, session: SessionRecord): void {
  if (infersRequiresAction(parts, session) && session.state.state === 'requires_action' && session.awaitingUser === 0) {
    parts.core.setState(session, { state: 'running' }, 'client');
  }
}

/** Work the ended turn left open on this session and on the children that live on its wire (virtual ones). */
function endOpenWork(parts: ReducerContext, session: SessionRecord, stopReason: string): void {
  endSteers(parts, session, stopReason);
  stopOpenCalls(parts, session, stopReason);
  for (const childId of session.childIds) {
    const child = parts.core.session(childId);
    // A background child outlives the turn that launched it; announced children report their own end.
    if (!child || child.origin !== 'virtual' || child.background) continue;
    // Only a child still working ends with this turn; one an earlier turn ended keeps that turn's reason.
    if (isWorking(child.state)) parts.core.setState(child, { state: 'idle', stopReason }, 'turn');
    endOpenWork(parts, child, stopReason);
  }
}

function stopOpenCalls(parts: ReducerContext, session: SessionRecord, stopReason: string): void {
  const { core } = parts;
  const index = core.indexOf(session);
  for (const toolCallId of session.toolCallOrder) {
    const call = session.toolCalls[toolCallId];
    if (!call || !isToolCallOpen(call.status) || call.stoppedByTurn) continue;
    const child = call.childSessionId ? core.session(call.childSessionId) : undefined;
    if (child?.background) continue;
    call.stoppedByTurn = { stopReason, at: core.at };
    delete call.progress;
    const entry = index.toolEntries.get(toolCallId);
    if (entry) core.touchEntry(session, entry);
  }
}
