// What a client may do to a session right now, with the reason in words when it may not.
import { isWorking } from '../presentation/sessionState';
import { grantsCancel, isToolCallOpen, terminalGrantsCancel } from '../presentation/toolCall';
import { isAdvertised } from './agentCapabilities';
import type { ActionPermission, SessionActions, SessionView } from './model';

const allowed = { allowed: true } as const;
const denied = (reason: string) => ({ allowed: false, reason }) as const;

const CHILD_PROMPT_REASON = 'ACP does not let a client send prompts to a subagent. Message the parent session instead and ask it to relay.';
const CHILD_CLOSE_REASON = 'Subagents cannot be closed on their own; close the parent session to free them.';

/** Working now (a prompt in flight counts too): a cancel can change something. */
function canChangeByCancel(session: SessionView): boolean {
  return session.activePromptId !== null || isWorking(session.state);
}

function nothingToCancel(session: SessionView): string {
  return `Nothing to cancel: "${session.label}" is not working right now.`;
}

/** What the agent offers that the actions depend on. */
export interface AgentOffers {
  /** `agentCapabilities.loadSession`. */
  readonly loadSession: boolean;
}

/** Every action refused for one reason. */
export function refusedActions(reason: string): SessionActions {
  return { cancel: denied(reason), prompt: denied(reason), close: denied(reason), openSubagent: denied(reason) };
}

/**
 * What refuses every control of a session alike — its own actions and its items' — with the reason: no agent
 * connection (a disconnect withdraws them all at once), or the session was closed.
 */
function controlsRefusal(session: SessionView, connected: boolean): string | undefined {
  if (!connected) return 'The agent is not connected. Restart the agent or reconnect the session first.';
  if (session.closed) return `"${session.label}" was closed; open a new session or reconnect it.`;
  return undefined;
}

export function actionsOf(session: SessionView, connected: boolean, offers: AgentOffers = { loadSession: false }): SessionActions {
  const refusal = controlsRefusal(session, connected);
  if (refusal) return refusedActions(refusal);
  return { ...sessionActions(session), openSubagent: openSubagent(session, offers) };
}

/**
 * opencode names a task's own session only when the task completes (`rawOutput.metadata.sessionId`);
 * `session/load` of it replays the child's whole transcript, and the loaded session takes the row's place.
 */
function openSubagent(session: SessionView, offers: AgentOffers) {
  if (session.parentId === null) return denied('Only a subagent has a session of its own to open.');
  if (session.origin !== 'virtual') return denied('This subagent is a session of its own already: its whole transcript is here.');
  if (!session.remoteSessionId) return denied('The agent has not named a session of this subagent\'s own, so there is nothing to load (opencode names it when the task completes).');
  if (!offers.loadSession) return denied('The agent does not support session/load (agentCapabilities.loadSession), so this subagent\'s own session cannot be opened.');
  if (isWorking(session.state)) return denied(`"${session.label}" is still working; its own session can be opened once its task has ended.`);
  return allowed;
}

function sessionActions(session: SessionView): Omit<SessionActions, 'openSubagent'> {
  // Roots the client opened, and children the agent treats as full sessions (the client loaded them).
  if (session.openedByClient) {
    return { cancel: canChangeByCancel(session) ? allowed : denied(nothingToCancel(session)), prompt: allowed, close: allowed };
  }
  if (session.origin === 'root') {
    const reason = 'Subchats did not open this session (it appeared in the agent\'s traffic without an announcement, so it may be a subagent); it is read-only.';
    return { cancel: denied(reason), prompt: denied(reason), close: denied(reason) };
  }
  if (session.origin === 'virtual') {
    return {
      cancel: denied('This subagent is only visible through its parent\'s tool call; the agent offers no way to cancel it alone. Cancel the parent session instead.'),
      prompt: denied(CHILD_PROMPT_REASON),
      close: denied(CHILD_CLOSE_REASON),
    };
  }
  return { cancel: childCancel(session), prompt: denied(CHILD_PROMPT_REASON), close: denied(CHILD_CLOSE_REASON) };
}

function childCancel(session: SessionView) {
  if (session.controlsStale) return denied('This subagent was restored from history; the agent has not confirmed that it can be cancelled now.');
  // The final spec grants a capability only by an object; the September draft's `cancel: true` is not a grant.
  if (!isAdvertised(session.capabilities?.['cancel'])) {
    return denied('This subagent does not accept cancel (the agent did not grant capabilities.cancel). Cancel the parent session instead.');
  }
  return canChangeByCancel(session) ? allowed : denied(nothingToCancel(session));
}

/** A tool call or agent terminal of a session (v2 items that can grant `capabilities.cancel`). */
export type SessionItem = { readonly toolCallId: string } | { readonly terminalId: string };

/**
 * Whether items of this session can be cancelled alone at all (v2 `tool_call/cancel`, `terminal/cancel`):
 * gated like the session's cancel (connected, not closed, not stale history).
 */
export function itemCancelGate(session: SessionView | undefined, connected: boolean, protocolVersion: number): ActionPermission {
  if (!session) return denied('Unknown session.');
  const refusal = controlsRefusal(session, connected);
  if (refusal) return denied(refusal);
  if (protocolVersion !== 2) return denied('Cancelling a single tool call or terminal is part of ACP v2; this agent speaks v1. Cancel the session instead.');
  if (session.controlsStale) return denied('This item was restored from history; the agent has not confirmed that it can be cancelled now.');
  return allowed;
}

/** One item: the session's gate, then the item's own grant while it still runs. */
export function itemCancelOf(session: SessionView | undefined, item: SessionItem, connected: boolean, protocolVersion: number): ActionPermission {
  const gate = itemCancelGate(session, connected, protocolVersion);
  if (!gate.allowed || !session) return gate;
  if ('toolCallId' in item) {
    const call = session.toolCalls[item.toolCallId];
    if (!call) return denied('Unknown tool call.');
    if (!isToolCallOpen(call)) return denied(`Nothing to cancel: "${call.title || 'this tool call'}" is not running.`);
    return grantsCancel(call) ? allowed : denied('The agent does not let this tool call be cancelled on its own (no capabilities.cancel). Cancel the session instead.');
  }
  const terminal = session.terminals[item.terminalId];
  if (!terminal?.agentOwned) return denied('Unknown agent terminal.');
  if (terminal.exitStatus) return denied('Nothing to cancel: the command has exited.');
  return terminalGrantsCancel(terminal) ? allowed : denied('The agent does not let this terminal be cancelled on its own (no capabilities.cancel). Cancel the session instead.');
}
