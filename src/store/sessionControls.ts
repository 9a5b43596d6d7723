// The session controller's rules: for every session and every moment, where its turn is, what the user may do
// to it (with the reason when not) and what a message sent now becomes. The one place these are decided: the
// tree, the chat (header, cards, prompt box, keys), the status bar, the palette, the public API and the
// connection read its verdicts and compute none of their own. Pure: facts in, verdicts out.
import { isWorking } from '../presentation/sessionState';
import { grantsCancel, isToolCallOpen, terminalGrantsCancel } from '../presentation/toolCall';
import { isAdvertised } from './agentCapabilities';
import type { ActionPermission, MessageRoute, SendVerdict, SessionActions, SessionView, TurnPhase } from './model';
import { t } from '../presentation/l10n';

const allowed = { allowed: true } as const;
const denied = (reason: string) => ({ allowed: false, reason }) as const;

const childCloseReason = () => t('Subagents cannot be closed on their own; close the parent session to free them.');

/** What the connection and the tree around a session tell the controller. */
export interface ControlFacts {
  /** The agent process is there (a disconnect withdraws every control at once). */
  readonly connected: boolean;
  /** `agentCapabilities.loadSession`. */
  readonly loadSession: boolean;
  /** The agent takes `_session/steering` (initialize `_meta.steering.supported`, or v2 `session.steering`). */
  readonly steering: boolean;
  /** Other sessions of the connection (the parent a relay goes through, background children). */
  readonly lookup: (sessionId: string) => SessionView | undefined;
  /** The session launched GitHub Copilot subagents (only then are its children looked through before a prompt). */
  readonly launchedCopilotTasks?: (sessionId: string) => boolean;
}

/** Where the session's turn is now (see TurnPhase). */
function phaseOf(session: SessionView, connected: boolean): TurnPhase {
  if (!connected || session.state.state === 'disconnected') return 'disconnected';
  if (session.closed) return 'closed';
  const working = isWorking(session.state);
  if ((working || session.activePromptId !== null) && session.cancelRequestedAt !== null) return 'cancelling';
  if (session.awaitingUser > 0 || session.state.state === 'requires_action') return 'awaiting-user';
  if (session.activePromptId !== null) return session.promptUnanswered ? 'starting' : 'running';
  if (session.state.state !== 'running') return 'idle';
  if (session.stateHistory.at(-1)?.source === 'agent-started') return 'agent-started';
  return session.background ? 'background' : 'running';
}

/** Phases in which a turn runs: the chat offers stop, and a message is steered or queued instead of sent. */
const BUSY: ReadonlySet<TurnPhase> = new Set<TurnPhase>(['starting', 'running', 'awaiting-user', 'cancelling', 'agent-started', 'background']);

/** Every action refused for one reason. */
export function refusedActions(reason: string, phase: TurnPhase = 'idle'): SessionActions {
  const no = denied(reason);
  return { phase, busy: BUSY.has(phase), cancel: no, prompt: no, steer: no, queue: no, relay: no, close: no, changeSetting: no, openSubagent: no, message: no, cancelChildren: no, send: { route: 'refuse', reason } };
}

/** What refuses every control of a session alike, its own and its items': no agent, or the session was closed. */
function controlsRefusal(session: SessionView, connected: boolean): string | undefined {
  if (!connected) return t('The agent is not connected. Restart the agent or reconnect the session first.');
  if (session.closed) return t('"{0}" was closed; open a new session or reconnect it.', session.label);
  return undefined;
}

export function controlsOf(session: SessionView, facts: ControlFacts): SessionActions {
  const phase = phaseOf(session, facts.connected);
  const refusal = controlsRefusal(session, facts.connected);
  if (refusal) return refusedActions(refusal, phase);
  const busy = BUSY.has(phase);
  const own = ownActions(session, phase);
  const route = own.prompt.allowed ? directRoute(session, phase, facts) : relayRoute(session, facts, own.prompt.reason ?? '');
  return {
    phase,
    busy,
    ...own,
    steer: route.route === 'steer' ? allowed : denied(steerRefusal(session, phase, facts, own.prompt)),
    queue: own.prompt.allowed && busy && phase !== 'agent-started' ? allowed : denied(own.prompt.allowed ? t('"{0}" is not working: a message is sent at once.', session.label) : (own.prompt.reason ?? '')),
    relay: route.route === 'relay' ? allowed : denied(session.parentId === null ? t("Only a subagent's messages go through its parent.") : route.reason),
    changeSetting: session.parentId === null ? own.prompt : denied(t('Modes and options are set on the root session.')),
    openSubagent: openSubagent(session, facts.loadSession),
    message: session.parentId === null ? denied(t('Only a subagent is messaged this way; send the session a prompt instead.')) : own.prompt.allowed || route.route === 'relay' ? allowed : denied(route.reason),
    cancelChildren: cancelChildren(session, facts),
    send: route,
  };
}

type OwnActions = Pick<SessionActions, 'cancel' | 'prompt' | 'close'>;

function ownActions(session: SessionView, phase: TurnPhase): OwnActions {
  // Roots the client opened, and subagents the agent treats as full sessions (the client loaded them).
  if (session.openedByClient) return { cancel: cancelNow(session, phase), prompt: allowed, close: allowed };
  if (session.origin === 'root') {
    const reason = t("Subchats did not open this session (it appeared in the agent's traffic without an announcement, so it may be a subagent); it is read-only.");
    return { cancel: denied(reason), prompt: denied(reason), close: denied(reason) };
  }
  const prompt = denied(t('ACP does not let a client send prompts to a subagent; a message for it goes through its parent as a relay.'));
  if (session.origin === 'virtual') {
    return { cancel: denied(t("This subagent is only visible through its parent's tool call; the agent offers no way to cancel it alone. Cancel the parent session instead.")), prompt, close: denied(childCloseReason()) };
  }
  return { cancel: childCancel(session, phase), prompt, close: denied(childCloseReason()) };
}

/** A cancel can change something only while the session works (a prompt in flight counts too). */
function cancelNow(session: SessionView, phase: TurnPhase): ActionPermission {
  if (phase === 'cancelling') return denied(t('Cancelling "{0}" already: the agent has not acted on it yet.', session.label));
  return BUSY.has(phase) ? allowed : denied(t('Nothing to cancel: "{0}" is not working right now.', session.label));
}

function childCancel(session: SessionView, phase: TurnPhase): ActionPermission {
  if (session.controlsStale) return denied(t('This subagent was restored from history; the agent has not confirmed that it can be cancelled now.'));
  // The final spec grants a capability only by an object; the September draft's `cancel: true` is not a grant.
  if (!isAdvertised(session.capabilities?.['cancel'])) {
    return denied(t('This subagent does not accept cancel (the agent did not grant capabilities.cancel). Cancel the parent session instead.'));
  }
  return cancelNow(session, phase);
}

/** The session's own cancel verdict, as controlsOf gives it (without the routes, which a cancel does not need). */
function cancelOf(session: SessionView, connected: boolean): ActionPermission {
  const refusal = controlsRefusal(session, connected);
  return refusal ? denied(refusal) : ownActions(session, phaseOf(session, connected)).cancel;
}

/**
 * "Cancel All Subagents" can act only where some working subagent below (at any depth) takes a cancel now; where
 * none does, the reason is the first working one's, or that none works.
 */
function cancelChildren(session: SessionView, facts: ControlFacts): ActionPermission {
  if (session.childIds.length === 0) return denied(t('"{0}" has no subagents.', session.label));
  const found = workingBelow(session, facts);
  if (found === 'cancellable') return allowed;
  if (!found) return denied(t('Nothing to cancel: no subagent of "{0}" is working right now.', session.label));
  return denied(t('None of the working subagents of "{0}" can be cancelled now: "{1}": {2}', session.label, found.label, cancelOf(found, facts.connected).reason ?? t('not allowed')));
}

/** What the last walk below a session found, while nothing in its subtree changed (its `subtreeRev`). */
interface WalkBelow {
  readonly subtreeRev: number;
  readonly connected: boolean;
  /** A working subagent below takes a cancel now. */
  readonly cancellable: boolean;
  /** Else the first working one (breadth first, in the order they appeared), if any. */
  readonly firstWorking: string | null;
}
const walksBelow = new WeakMap<SessionView, WalkBelow>();

/**
 * Whether a working subagent below takes a cancel now ('cancellable'), else the first working one, else
 * undefined. Remembered per subtree revision: the row of a parent of hundreds of idle subagents is redrawn
 * every second while it works.
 */
function workingBelow(session: SessionView, facts: ControlFacts): 'cancellable' | SessionView | undefined {
  let walk = walksBelow.get(session);
  if (!walk || walk.subtreeRev !== session.subtreeRev || walk.connected !== facts.connected) {
    walk = walkBelow(session, facts);
    walksBelow.set(session, walk);
  }
  if (walk.cancellable) return 'cancellable';
  return walk.firstWorking === null ? undefined : facts.lookup(walk.firstWorking);
}

function walkBelow(session: SessionView, facts: ControlFacts): WalkBelow {
  let firstWorking: string | null = null;
  const seen = new Set<string>([session.id]);
  const pending = [...session.childIds];
  for (let next = 0; next < pending.length; next++) {
    const id = pending[next]!;
    const child = seen.has(id) ? undefined : facts.lookup(id);
    if (!child) continue;
    seen.add(id);
    pending.push(...child.childIds);
    if (!isWorking(child.state)) continue;
    if (cancelOf(child, facts.connected).allowed) return { subtreeRev: session.subtreeRev, connected: facts.connected, cancellable: true, firstWorking: null };
    firstWorking ??= child.id;
  }
  return { subtreeRev: session.subtreeRev, connected: facts.connected, cancellable: false, firstWorking };
}

/** A session that takes prompts: send, steer the running turn, or wait in its queue. */
function directRoute(session: SessionView, phase: TurnPhase, facts: ControlFacts): SendVerdict {
  const waiting = session.queued.length;
  // A turn the agent started is the agent's: nothing says when it ends (opencode never does), so it never holds
  // back the user's message; where the agent steers, the message joins that turn (or becomes a prompt if it ended).
  if (phase === 'agent-started') {
    return facts.steering ? steerVerdict(session) : withConfirm(session, facts, { route: 'prompt', reason: t('"{0}" runs a turn it started itself; your message is sent at once.', session.label) });
  }
  if (phase === 'idle') {
    if (waiting > 0) return { route: 'queue', reason: waiting === 1 ? t('Queued after the 1 message waiting before it.') : t('Queued after the {0} messages waiting before it.', waiting) };
    return withConfirm(session, facts, { route: 'prompt', reason: t('Sent as a new prompt.') });
  }
  if (phase === 'cancelling') return { route: 'queue', reason: t('Queued: "{0}" is being cancelled, and a message sent into that turn would be lost. It is sent when the turn ends.', session.label) };
  if (facts.steering) return steerVerdict(session);
  return { route: 'queue', reason: t('Queued until "{0}" ends its turn: the agent does not take messages during a turn (it does not advertise steering).', session.label) };
}

function steerVerdict(session: SessionView): SendVerdict {
  return { route: 'steer', reason: t('Sent into the running turn of "{0}" at once (steering); the agent reads it at its next step.', session.label) };
}

/** GitHub Copilot CLI stops every background subagent of a session when that session gets a new prompt. */
function withConfirm(session: SessionView, facts: ControlFacts, verdict: SendVerdict): SendVerdict {
  // Every verdict of every row passes here: other agents' trees are not walked.
  if (!facts.launchedCopilotTasks?.(session.id)) return verdict;
  const running = backgroundCopilotChildren(session, facts);
  if (running.length === 0) return verdict;
  const names = running.map((child) => `"${child.label}"`).join(', ');
  return { ...verdict, confirm: t('GitHub Copilot CLI stops all background subagents of a session when it gets a new prompt. Still running: {0}. Send anyway?', names) };
}

function backgroundCopilotChildren(session: SessionView, facts: ControlFacts): SessionView[] {
  const found: SessionView[] = [];
  const visit = (ids: readonly string[], depth: number) => {
    if (depth > 64) return;
    for (const id of ids) {
      const child = facts.lookup(id);
      if (!child) continue;
      if (child.link === 'copilot-meta' && child.background && isWorking(child.state)) found.push(child);
      visit(child.childIds, depth + 1);
    }
  };
  visit(session.childIds, 0);
  return found;
}

/**
 * A subagent's message goes to the nearest ancestor that takes prompts, labelled as a relay, by that ancestor's
 * own route (a steer while it runs, a prompt when idle, its queue otherwise).
 */
function relayRoute(session: SessionView, facts: ControlFacts, promptReason: string): SendVerdict {
  if (session.parentId === null) return { route: 'refuse', reason: promptReason };
  if (session.origin === 'virtual' && !isWorking(session.state) && session.state.state !== 'unconfirmed') {
    return { route: 'refuse', reason: t('"{0}" has ended, and the agent offers no way to reach it again. Message its parent instead.', session.label) };
  }
  const seen = new Set<string>([session.id]);
  for (let id: string | null = session.parentId; id !== null && !seen.has(id); ) {
    seen.add(id);
    const via = facts.lookup(id);
    if (!via) break;
    const viaRefusal = controlsRefusal(via, facts.connected);
    if (viaRefusal) return { route: 'refuse', reason: t('No session can pass a message on to "{0}": {1}', session.label, viaRefusal) };
    if (via.openedByClient) {
      const route = directRoute(via, phaseOf(via, facts.connected), facts);
      return { route: 'relay', reason: t('Sent to "{0}" for "{1}": {2}', via.label, session.label, RELAY_HOW[route.route]()), via: { sessionId: via.id, label: via.label }, ...(route.confirm ? { confirm: route.confirm } : {}) };
    }
    id = via.parentId;
  }
  return { route: 'refuse', reason: t('No ancestor of "{0}" takes prompts, so nothing can pass a message on to it.', session.label) };
}

const RELAY_HOW: Readonly<Record<MessageRoute, () => string>> = {
  steer: () => t("it joins the parent's running turn at once."),
  prompt: () => t('the parent gets it as a new prompt.'),
  queue: () => t("it waits in the parent's queue until its turn ends."),
  relay: () => '',
  refuse: () => '',
};

function steerRefusal(session: SessionView, phase: TurnPhase, facts: ControlFacts, prompt: ActionPermission): string {
  if (!prompt.allowed) return prompt.reason ?? t('This session cannot take messages.');
  if (!facts.steering) return t('The agent does not advertise steering (_session/steering), so a message waits for the turn to end.');
  if (phase === 'cancelling') return t('"{0}" is being cancelled: a message sent into that turn would be lost.', session.label);
  return t('"{0}" is not working: a message is sent as a new prompt.', session.label);
}

/**
 * opencode names a task's own session only when the task completes (`rawOutput.metadata.sessionId`);
 * `session/load` of it replays the child's whole transcript, and the loaded session takes the row's place.
 */
function openSubagent(session: SessionView, loadSession: boolean): ActionPermission {
  if (session.parentId === null) return denied(t('Only a subagent has a session of its own to open.'));
  if (session.origin !== 'virtual') return denied(t('This subagent is a session of its own already: its whole transcript is here.'));
  if (!session.remoteSessionId) return denied(t("The agent has not named a session of this subagent's own, so there is nothing to load (opencode names it when the task completes)."));
  if (!loadSession) return denied(t("The agent does not support session/load (agentCapabilities.loadSession), so this subagent's own session cannot be opened."));
  if (isWorking(session.state)) return denied(t('"{0}" is still working; its own session can be opened once its task has ended.', session.label));
  return allowed;
}

/** A tool call or agent terminal of a session (v2 items that can grant `capabilities.cancel`). */
export type SessionItem = { readonly toolCallId: string } | { readonly terminalId: string };

/**
 * Whether items of this session can be cancelled alone at all (v2 `tool_call/cancel`, `terminal/cancel`):
 * gated like the session's cancel (connected, not closed, not stale history).
 */
export function itemCancelGate(session: SessionView | undefined, connected: boolean, protocolVersion: number): ActionPermission {
  if (!session) return denied(t('Unknown session.'));
  const refusal = controlsRefusal(session, connected);
  if (refusal) return denied(refusal);
  if (protocolVersion !== 2) return denied(t('Cancelling a single tool call or terminal is part of ACP v2; this agent speaks v1. Cancel the session instead.'));
  if (session.controlsStale) return denied(t('This item was restored from history; the agent has not confirmed that it can be cancelled now.'));
  return allowed;
}

/** One item: the session's gate, then the item's own grant while it still runs. */
export function itemCancelOf(session: SessionView | undefined, item: SessionItem, connected: boolean, protocolVersion: number): ActionPermission {
  const gate = itemCancelGate(session, connected, protocolVersion);
  if (!gate.allowed || !session) return gate;
  if ('toolCallId' in item) {
    const call = session.toolCalls[item.toolCallId];
    if (!call) return denied(t('Unknown tool call.'));
    if (!isToolCallOpen(call)) return denied(t('Nothing to cancel: "{0}" is not running.', call.title || t('this tool call')));
    return grantsCancel(call) ? allowed : denied(t('The agent does not let this tool call be cancelled on its own (no capabilities.cancel). Cancel the session instead.'));
  }
  const terminal = session.terminals[item.terminalId];
  if (!terminal?.agentOwned) return denied(t('Unknown agent terminal.'));
  if (terminal.exitStatus) return denied(t('Nothing to cancel: the command has exited.'));
  return terminalGrantsCancel(terminal) ? allowed : denied(t('The agent does not let this terminal be cancelled on its own (no capabilities.cancel). Cancel the session instead.'));
}

/**
 * The sessions whose controls may differ after `changed` sessions changed their own fields. A session's controls
 * read the session, its ancestors (the relay route goes up through them) and its descendants (Cancel All
 * Subagents); so a change reaches the changed session, its ancestors and its descendants, never its siblings.
 * One exception: a relay through a parent that launched GitHub Copilot tasks names that parent's background
 * subagents, so under such a parent every session may differ.
 */
export function controlsAffectedBy(changed: Iterable<string>, facts: Pick<ControlFacts, 'lookup' | 'launchedCopilotTasks'>): Set<string> {
  const affected = new Set<string>();
  /** Sessions whose whole subtree is in `affected` already (an ancestor alone is not). */
  const expanded = new Set<string>();
  const addSubtree = (rootId: string) => {
    const pending = [rootId];
    for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
      if (expanded.has(id)) continue;
      expanded.add(id);
      affected.add(id);
      pending.push(...(facts.lookup(id)?.childIds ?? []));
    }
  };
  for (const id of changed) {
    addSubtree(id);
    const seen = new Set<string>([id]);
    for (let parentId = facts.lookup(id)?.parentId ?? null; parentId !== null && !seen.has(parentId); parentId = facts.lookup(parentId)?.parentId ?? null) {
      seen.add(parentId);
      affected.add(parentId);
      if (facts.launchedCopilotTasks?.(parentId)) addSubtree(parentId);
    }
  }
  return affected;
}
