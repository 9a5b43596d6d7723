// Pure mapping from the session store to tree item descriptions (no vscode import, so it is unit-tested in Node).
import type { AgentRuntime } from '../host/subchatsService';
import type { SessionActions, SessionView } from '../store/model';
import { isReconnectable } from '../host/reconnect';
import { inertUiText, markdownText } from '../host/uiText';
import {
  clockTime,
  elapsedMs,
  filesChangedLabel,
  formatDuration,
  isWorking,
  longQuietNotice,
  plainText,
  presentState,
  spentTimesSinceText,
  stateExplanation,
  subtreeUsageLines,
  t,
  withBackgroundWork,
  type PresentedState,
} from '../presentation';
import { subtreeSummary } from '../store/subtreeSummary';
import { questionsNotForwardedBy } from '../store/subagentDialects';

export interface TreeItemModel {
  readonly id: string;
  readonly label: string;
  readonly description: string;
  readonly tooltip: string;
  /** Codicon id (with `~spin` for animation). */
  readonly icon: string;
  /** Theme color id for the icon, if any. */
  readonly iconColor?: string;
  /** Encodes what the session allows, matched by `when` clauses with regular expressions. */
  readonly contextValue: string;
  readonly collapsible: boolean;
  readonly expanded: boolean;
}

export interface SessionTreeContext {
  readonly agentName: string;
  readonly connectionId: string;
  readonly actions: SessionActions;
  readonly now: number;
  readonly live: boolean;
  /** A root of a finished connection whose agent supports session/load or session/resume. */
  readonly reconnectable: boolean;
  /** Parent chain titles, root first, for the tooltip. */
  readonly ancestry: readonly string[];
  /** The agent that keeps this subagent's questions to itself (see questionsNotForwardedBy). */
  readonly questionsNotForwardedBy?: string | null;
  /** Files the session and its descendants changed (see src/store/sessionChanges.ts). */
  readonly changedFiles?: number;
  /** What the session and its subagents reported they spent, as lines (src/presentation/usage.ts). */
  readonly usageLines?: readonly string[];
  /** Descendants still at work in the background (see backgroundRunning): an ended turn says they run. */
  readonly backgroundRunning?: number;
}

export function sessionNodeId(connectionId: string, sessionId: string): string {
  return `session|${connectionId}|${sessionId}`;
}

/** Inverse of sessionNodeId; connection ids never contain '|', session ids may. */
export function parseSessionNodeId(id: string): { connectionId: string; sessionId: string } | undefined {
  const match = /^session\|([^|]+)\|(.+)$/s.exec(id);
  return match ? { connectionId: match[1]!, sessionId: match[2]! } : undefined;
}

/** A presented state as a tree icon: codicon id with `~spin` when it animates. */
function treeIcon(presented: Pick<PresentedState, 'icon' | 'spin'>): string {
  return presented.spin ? `${presented.icon}~spin` : presented.icon;
}

/** How a session's row reads at `now`: its icon and label, and the activity the status bar counts by. */
export function presentRow(session: SessionView, now: number): PresentedState {
  return presentState(session.state, session, now);
}

export function sessionTreeItem(session: SessionView, ctx: SessionTreeContext): TreeItemModel {
  const presented = withBackgroundWork(presentRow(session, ctx.now), ctx.backgroundRunning ?? 0);
  const tools = session.toolCallOrder.length;
  // A session at work shows when it started, not a running count: a row that changes every second is refreshed
  // every second, and VS Code drops the context-menu target of every row below a refreshing row until the
  // workbench fetches them again (a menu command then gets no session). Finished rows show how long they took.
  const time = isWorking(session.state) && ctx.live ? t('since {0}', clockTime(session.createdAt)) : formatDuration(elapsedMs(session, ctx.now, ctx.live));
  const parts = [presented.label, time];
  if (tools > 0) parts.push(tools === 1 ? t('1 tool') : t('{0} tools', tools));
  if (session.childIds.length > 0) parts.push(t('{0} sub', session.childIds.length));
  const changed = filesChangedLabel(ctx.changedFiles ?? 0);
  if (changed) parts.push(changed);
  const flags = [
    'session',
    session.parentId ? 'child' : 'root',
    session.origin,
    ctx.actions.cancel.allowed ? 'canCancel' : 'noCancel',
    ctx.actions.prompt.allowed ? 'canPrompt' : 'noPrompt',
    ctx.actions.close.allowed ? 'canClose' : 'noClose',
    ...(ctx.actions.openSubagent.allowed ? ['canOpenSubagent'] : []),
    ...(ctx.actions.message.allowed ? ['canMessage'] : []),
    session.childIds.length > 0 ? 'hasChildren' : 'leaf',
    ...(ctx.actions.cancelChildren.allowed ? ['canCancelChildren'] : []),
    ctx.live ? 'live' : 'history',
    // A turn runs (the controller's word): the inline stop button only shows then.
    ...(ctx.live && ctx.actions.busy ? ['busy'] : []),
    ...(ctx.reconnectable ? ['reconnectable'] : []),
    ...((ctx.changedFiles ?? 0) > 0 ? ['hasChanges'] : []),
  ];
  return {
    id: sessionNodeId(ctx.connectionId, session.id),
    label: inertUiText(session.label),
    description: parts.join(' · '),
    tooltip: sessionTooltip(session, presented, ctx),
    icon: treeIcon(presented),
    ...(presented.color ? { iconColor: presented.color } : {}),
    contextValue: flags.join(' '),
    // A live session may still spawn children: VS Code only honours the expanded state the first time it
    // sees an id, so such items start expanded (an expanded item without children shows no twistie).
    // A live root counts even while idle: it is first seen before its first prompt starts a turn.
    collapsible: session.childIds.length > 0 || (ctx.live && (isWorking(session.state) || session.parentId === null)),
    expanded: session.parentId === null || (ctx.live && isWorking(session.state)) || session.childIds.length > 0,
  };
}

/** The tree item of a session as the sidebar shows it: the connection supplies liveness and reconnectability. */
export function sessionItemOf(runtime: Pick<AgentRuntime, 'id' | 'agent' | 'live' | 'status' | 'store'>, sessionId: string, now: number): TreeItemModel | undefined {
  const session = runtime.store.getSession(sessionId);
  if (!session) return undefined;
  const ancestry: string[] = [];
  for (let p = session.parentId; p; ) {
    const parent = runtime.store.getSession(p);
    if (!parent) break;
    ancestry.unshift(parent.label);
    p = parent.parentId;
  }
  const below = subtreeSummary(runtime.store, sessionId)!;
  return sessionTreeItem(session, {
    agentName: runtime.agent.name,
    connectionId: runtime.id,
    actions: runtime.store.actionsFor(sessionId),
    now,
    live: runtime.live,
    reconnectable: isReconnectable(runtime, session),
    ancestry,
    questionsNotForwardedBy: questionsNotForwardedBy(runtime.store, session),
    changedFiles: below.changedPaths.size,
    usageLines: subtreeUsageLines(below.usage),
    backgroundRunning: below.backgroundRunning,
  });
}

function sessionTooltip(session: SessionView, presented: PresentedState, ctx: SessionTreeContext): string {
  const lines = [
    `**${markdownText(session.label)}**`,
    '',
    t('Agent: {0}', markdownText(ctx.agentName)),
    t('Session: {0}', inlineCode(session.id)),
  ];
  if (ctx.ancestry.length > 0) lines.push(t('Parent: {0}', ctx.ancestry.map(markdownText).join(' › ')));
  if (session.description && session.description !== session.title) lines.push(t('Role: {0}', markdownText(session.description)));
  if (session.subagentType) lines.push(t('Subagent type: {0}', markdownText(session.subagentType)));
  lines.push(
    session.parentToolCallId
      ? t('Linked by: {0} (tool call {1})', markdownText(session.link), inlineCode(session.parentToolCallId))
      : t('Linked by: {0}', markdownText(session.link)),
  );
  if (session.cwd) lines.push(t('Working directory: {0}', inlineCode(session.cwd)));
  lines.push(t('State: {0}', markdownText(presented.label)));
  lines.push(t('Time: {0}', spentTimesSinceText(session, ctx.live)));
  const explanation = stateExplanation(session.stateHistory, { cancelRequestedAt: session.cancelRequestedAt });
  if (explanation) lines.push(`_${markdownText(explanation)}_`);
  const quiet = longQuietNotice({ state: session.state, updatedAt: session.updatedAt, questionsNotForwardedBy: ctx.questionsNotForwardedBy ?? null, background: session.background }, ctx.now);
  if (quiet) lines.push(markdownText(quiet));
  if (session.state.error?.message) lines.push(t('Error: {0}', markdownText(session.state.error.message)));
  if (session.state.reported) lines.push(t('Reported by the agent: {0}', markdownText(session.state.reported)));
  for (const line of ctx.usageLines ?? []) lines.push(markdownText(line));
  if (!ctx.actions.cancel.allowed && ctx.actions.cancel.reason) lines.push('', `_${t('Cancel: {0}', markdownText(ctx.actions.cancel.reason))}_`);
  return lines.join('  \n');
}

/** Agent text as a code span that it cannot close: the fence is longer than any backtick run inside. */
export function inlineCode(text: string): string {
  const flat = plainText(text).replace(/\s*\n\s*/g, ' ');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence} ${flat} ${fence}`;
}

/** Sessions that need the user (the view badge). */
export function needsUser(session: SessionView): boolean {
  return session.state.state === 'requires_action' || session.awaitingUser > 0;
}
