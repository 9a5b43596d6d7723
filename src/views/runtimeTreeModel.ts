// Pure mapping of an agent connection to its tree item (the top level of the session tree).
import type { AgentRuntime } from '../host/subchatsService';
import { formatDuration, historyCut, t } from '../presentation';
import { inertUiText, markdownText } from '../host/uiText';
import { inlineCode, type TreeItemModel } from './sessionTreeModel';

// Labels are functions: the words are translated when the row is drawn (src/presentation/l10n.ts).
const STATUS: Record<AgentRuntime['status'], { icon: string; color?: string; label: () => string }> = {
  starting: { icon: 'loading~spin', label: () => t('starting') },
  ready: { icon: 'vm-running', color: 'testing.iconPassed', label: () => t('connected') },
  exited: { icon: 'debug-disconnect', color: 'errorForeground', label: () => t('disconnected') },
  failed: { icon: 'error', color: 'errorForeground', label: () => t('failed to start') },
  history: { icon: 'history', label: () => t('history') },
  transcript: { icon: 'file-text', label: () => t('transcript (read-only)') },
};

/** How many of the newest connections restored from history start expanded after a reload. */
const OPEN_RECENT_HISTORY = 3;

/**
 * `recentHistory`: this connection is one of the OPEN_RECENT_HISTORY newest restored from history. Those start
 * expanded, so a reload leaves recent work in view as it was; older ones start collapsed to keep the tree short.
 */
export function runtimeTreeItem(
  runtime: Pick<AgentRuntime, 'id' | 'agent' | 'status' | 'error' | 'startedAt' | 'cwd' | 'store'> & { readonly historyDroppedBytes?: number },
  now: number,
  { recentHistory = false }: { readonly recentHistory?: boolean } = {},
): TreeItemModel {
  const cut = historyCut(runtime.historyDroppedBytes ?? 0);
  const status = STATUS[runtime.status];
  const statusLabel = status.label();
  const roots = runtime.store.listSessions().filter((s) => s.parentId === null).length;
  const restartable = runtime.status === 'exited' || runtime.status === 'failed' || runtime.status === 'ready';
  const when = new Date(runtime.startedAt).toLocaleString('en-US', { hour12: false });
  const tooltip = [
    `**${markdownText(runtime.agent.name)}** — ${statusLabel}`,
    runtime.agent.command ? t('Command: {0}', inlineCode([runtime.agent.command, ...(runtime.agent.args ?? [])].join(' '))) : undefined,
    runtime.cwd ? t('Working directory: {0}', inlineCode(runtime.cwd)) : undefined,
    t('Started: {0}', when),
    // The error often carries the agent's own words (its JSON-RPC error, its stderr).
    runtime.error ? `\n${markdownText(runtime.error)}` : undefined,
    runtime.store.diagnostics.length ? t('{0} protocol diagnostic(s); see the Subchats Protocol log', runtime.store.diagnostics.length) : undefined,
    cut ? t("{0}: the oldest part of this connection's history did not fit subchats.history.maxMegabytes; turn ends and state changes were kept", cut) : undefined,
  ].filter((l): l is string => l !== undefined);
  return {
    id: `runtime|${runtime.id}`,
    label: inertUiText(runtime.agent.name),
    description: [
      statusLabel,
      roots === 1 ? t('1 session') : t('{0} sessions', roots),
      ...(runtime.status === 'history' ? [t('{0} ago', formatDuration(now - runtime.startedAt))] : []),
      ...(cut ? [cut] : []),
    ].join(' · '),
    tooltip: tooltip.join('  \n'),
    icon: status.icon,
    ...(status.color ? { iconColor: status.color } : {}),
    contextValue: ['agent', runtime.status, runtime.status === 'ready' ? 'live' : 'offline', ...(restartable ? ['restartable'] : [])].join(' '),
    collapsible: true,
    expanded: runtime.status !== 'history' || recentHistory,
  };
}

/** The ids of the OPEN_RECENT_HISTORY newest connections restored from history. */
export function recentHistoryIds(runtimes: Iterable<Pick<AgentRuntime, 'id' | 'status' | 'startedAt'>>): Set<string> {
  const history = [...runtimes].filter((runtime) => runtime.status === 'history').sort((a, b) => b.startedAt - a.startedAt);
  return new Set(history.slice(0, OPEN_RECENT_HISTORY).map((runtime) => runtime.id));
}
