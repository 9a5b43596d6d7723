// The session tree's sort and filter (pure, no vscode): which rows show and in what order among their siblings.
// A row is shown or hidden by the same verdict it reads (presentRow's activity at one `now`), so a row never
// says "Needs you" while "Needs me" hides it, nor the other way round. An ancestor of a shown row stays, so the
// path to it stays; the rest of a hidden row's subtree goes with it.
import { t } from '../presentation/l10n';
import type { Activity } from '../presentation/sessionState';
import type { SessionView } from '../store/model';
import { preOrder } from '../presentation/treeOrder';
import { presentRow } from './sessionTreeModel';
import { usageRank, type UsageRank } from './usageRank';

export type TreeSort = 'appearance' | 'state' | 'cost' | 'agent';
export type TreeShow = 'everything' | 'needsMe' | 'working';

export interface TreeViewOptions {
  readonly sort: TreeSort;
  readonly show: TreeShow;
  /** Agent names whose connections show; empty: every agent's. */
  readonly agents: readonly string[];
}

export const DEFAULT_TREE_OPTIONS: TreeViewOptions = { sort: 'appearance', show: 'everything', agents: [] };

const SORTS: readonly TreeSort[] = ['appearance', 'state', 'cost', 'agent'];
const SHOWS: readonly TreeShow[] = ['everything', 'needsMe', 'working'];

/** Options as stored (workspace state): anything unknown falls back to the default. */
export function readTreeOptions(raw: unknown): TreeViewOptions {
  const o = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const sort = SORTS.find((s) => s === o['sort']) ?? DEFAULT_TREE_OPTIONS.sort;
  const show = SHOWS.find((s) => s === o['show']) ?? DEFAULT_TREE_OPTIONS.show;
  const agents = Array.isArray(o['agents']) ? [...new Set(o['agents'].filter((a): a is string => typeof a === 'string'))] : [];
  return { sort, show, agents };
}

/** Some rows may be hidden. */
export function isFiltered(options: TreeViewOptions): boolean {
  return options.show !== 'everything' || options.agents.length > 0;
}

/** The tree shows as it always did: nothing to compute. */
export function isPlain(options: TreeViewOptions): boolean {
  return options.sort === 'appearance' && !isFiltered(options);
}

/** Whether a row whose own verdict is `activity` is shown for itself (its ancestors stay for it). */
export function activityShown(activity: Activity, show: TreeShow): boolean {
  if (show === 'needsMe') return activity === 'waiting';
  if (show === 'working') return activity !== 'idle';
  return true;
}

/** Whether the connection's agent is one the options show. */
function agentShown(agentName: string, options: TreeViewOptions): boolean {
  return options.agents.length === 0 || options.agents.includes(agentName);
}

/** State sort: needs you, then working, then the rest. */
const STATE_RANK: Readonly<Record<Activity, number>> = { waiting: 0, working: 1, idle: 2 };

/** Cost sort: reported cost first (highest first), then tokens only (most first), then nothing reported. */
function compareUsage(a: UsageRank | undefined, b: UsageRank | undefined): number {
  const tier = (u: UsageRank | undefined) => (u === undefined ? 2 : u.unit === 'cost' ? 0 : 1);
  return tier(a) - tier(b) || (b?.amount ?? 0) - (a?.amount ?? 0);
}

export interface ArrangeableRuntime {
  readonly agentName: string;
  readonly store: { listSessions(): readonly SessionView[]; getSession(id: string): SessionView | undefined };
}

/** One connection's rows as the options arrange them at `now`. */
export interface ArrangedRuntime {
  readonly now: number;
  /** The verdict each reachable session's row reads at `now`, computed once. */
  readonly activity: ReadonlyMap<string, Activity>;
  /** Shown children of each shown session, in order; `null` keys the roots. */
  readonly children: ReadonlyMap<string | null, readonly string[]>;
  /** Sessions shown, and sessions hidden (reachable from a root and not shown). */
  readonly visible: number;
  readonly hidden: number;
  /** Whether the connection's own row shows. */
  readonly shown: boolean;
}

export function arrangeRuntime(runtime: ArrangeableRuntime, options: TreeViewOptions, now: number): ArrangedRuntime {
  const { store } = runtime;
  const rootIds = store.listSessions().filter((s) => s.parentId === null).map((s) => s.id);
  const sessions = preOrder(rootIds, (id) => store.getSession(id), (s) => s.childIds);
  const activity = new Map<string, Activity>();
  for (const session of sessions) activity.set(session.id, presentRow(session, now).activity);
  const agentOk = agentShown(runtime.agentName, options);
  // Children come after their parent in pre-order: walking it backwards settles each child before its parent.
  const kept = new Set<string>();
  if (agentOk) {
    for (let i = sessions.length - 1; i >= 0; i--) {
      const session = sessions[i]!;
      if (activityShown(activity.get(session.id)!, options.show) || session.childIds.some((id) => kept.has(id))) kept.add(session.id);
    }
  }
  const order = siblingOrder(options.sort, activity, store);
  const children = new Map<string | null, readonly string[]>();
  children.set(null, order(rootIds.filter((id) => kept.has(id))));
  for (const session of sessions) if (kept.has(session.id)) children.set(session.id, order(uniqueIds(session.childIds).filter((id) => kept.has(id))));
  return {
    now,
    activity,
    children,
    visible: kept.size,
    hidden: sessions.length - kept.size,
    shown: agentOk && (options.show === 'everything' || kept.size > 0),
  };
}

function uniqueIds(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}

function siblingOrder(sort: TreeSort, activity: ReadonlyMap<string, Activity>, store: ArrangeableRuntime['store']): (ids: string[]) => string[] {
  // Array.prototype.sort is stable: siblings equal by the key keep their order of appearance.
  if (sort === 'state') return (ids) => ids.sort((a, b) => STATE_RANK[activity.get(a) ?? 'idle'] - STATE_RANK[activity.get(b) ?? 'idle']);
  if (sort === 'cost') {
    return (ids) => {
      const rank = new Map(ids.map((id) => [id, usageRank(store.getSession(id) ?? { spend: null })]));
      return ids.sort((a, b) => compareUsage(rank.get(a), rank.get(b)));
    };
  }
  return (ids) => ids;
}

/** The connections in the order the options give them: by agent name for the agent sort, else as they came. */
export function orderRuntimes<R extends { readonly agentName: string }>(runtimes: readonly R[], options: TreeViewOptions): R[] {
  if (options.sort !== 'agent') return [...runtimes];
  return [...runtimes].sort((a, b) => a.agentName.localeCompare(b.agentName, 'en', { sensitivity: 'base' }));
}

const SHOW_WORDS: Readonly<Record<Exclude<TreeShow, 'everything'>, { only: () => string; none: () => string }>> = {
  needsMe: { only: () => t('sessions that need you'), none: () => t('Nothing needs you') },
  working: { only: () => t('sessions at work or waiting for you'), none: () => t('Nothing is at work') },
};

/**
 * The tree's message while a filter is on: what shows and how many sessions it hides. Plain text (agent names
 * are the user's configuration or a transcript's; the caller keeps them inert).
 */
export function filterMessage(options: TreeViewOptions, counts: { readonly shown: number; readonly hidden: number }): string | undefined {
  if (!isFiltered(options)) return undefined;
  const agents = options.agents.length > 0 ? `${options.agents.join(', ')}` : '';
  const words = options.show === 'everything' ? undefined : SHOW_WORDS[options.show];
  const what = words ? (agents ? t('{0} of {1}', words.only(), agents) : words.only()) : t('sessions of {0}', agents);
  const hidden = counts.hidden === 1 ? t('1 session hidden') : t('{0} sessions hidden', counts.hidden);
  const head = counts.shown > 0 ? t('Showing only {0}: {1}.', what, hidden) : words && !agents ? t('{0}: {1}.', words.none(), hidden) : t('No {0}: {1}.', what, hidden);
  return t('{0} Clear the filter to see all.', head);
}
