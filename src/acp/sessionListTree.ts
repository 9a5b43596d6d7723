// Orders `session/list` entries as a tree: entries naming a listed parent (draft `parentSessionId`, else the
// nearest listed ancestor the client's store knows) nest under it, in the agent's order; the rest are roots.
// Cycles and unknown parents fall back to roots.

export interface ListedSession {
  readonly sessionId: string;
  readonly title: string | null;
  readonly cwd: string | null;
  readonly updatedAt: string | null;
  readonly parentSessionId: string | null;
  readonly parentToolCallId: string | null;
  readonly subagentId: string | null;
}

/** What the client's store knows of a session by the agent's id (listedSessionNames.ts builds it). */
interface KnownSession {
  /** The name the tree shows for it (never an id). */
  readonly label: string;
  /** The agent's ids of the sessions above it, nearest first. */
  readonly ancestorIds: Iterable<string>;
}

export type KnownSessions = (agentSessionId: string) => KnownSession | undefined;

export interface ListedSessionRow extends ListedSession {
  readonly depth: number;
  /** The top-most listed ancestor (itself for a root): what session/load must name, as ACP loads no child alone. */
  readonly rootSessionId: string;
}

/**
 * At most this many listed sessions are read over all `session/list` pages: the quick pick stays usable and
 * the (linear) nesting work stays bounded whatever an agent sends.
 */
export const MAX_LISTED_SESSIONS = 5_000;

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** Reads up to `limit` `session/list` result entries leniently; entries without a sessionId are dropped. */
export function readListedSessions(raw: unknown, limit = MAX_LISTED_SESSIONS): ListedSession[] {
  if (!Array.isArray(raw)) return [];
  const out: ListedSession[] = [];
  for (const item of raw) {
    if (out.length >= limit) break;
    if (typeof item !== 'object' || item === null) continue;
    const entry = item as Record<string, unknown>;
    const meta = typeof entry['_meta'] === 'object' && entry['_meta'] !== null ? (entry['_meta'] as Record<string, unknown>) : {};
    const sessionId = str(entry['sessionId']);
    if (!sessionId) continue;
    out.push({
      sessionId,
      title: str(entry['title']),
      cwd: str(entry['cwd']),
      updatedAt: str(entry['updatedAt']),
      parentSessionId: str(entry['parentSessionId']) ?? str(meta['parentSessionId']),
      parentToolCallId: str(entry['parentToolCallId']) ?? str(meta['parentToolCallId']),
      subagentId: str(entry['subagentId']) ?? str(meta['subagentId']),
    });
  }
  return out;
}

/**
 * Pre-order rows in the agent's order. Linear and iterative: the agent controls the depth (a 16,000-deep chain
 * once cost 45 s and then overflowed the stack). A session listed twice keeps its first entry.
 */
export function nestListedSessions(sessions: readonly ListedSession[], known?: KnownSessions): ListedSessionRow[] {
  const byId = new Map<string, ListedSession>();
  for (const session of sessions) if (!byId.has(session.sessionId)) byId.set(session.sessionId, session);
  const unique = [...byId.values()];
  const parentOf = new Map<string, string | null>();
  for (const session of unique) parentOf.set(session.sessionId, listedParent(session, byId, known));
  const onCycle = sessionsOnParentCycles(parentOf);
  const children = new Map<string, ListedSession[]>();
  const roots: ListedSession[] = [];
  for (const session of unique) {
    const parent = parentOf.get(session.sessionId);
    if (parent && byId.has(parent) && !onCycle.has(session.sessionId)) {
      const list = children.get(parent);
      if (list) list.push(session);
      else children.set(parent, [session]);
    } else roots.push(session);
  }
  const rows: ListedSessionRow[] = [];
  // Depth-first with an explicit stack; children are pushed in reverse so they come out in the agent's order.
  const stack: { session: ListedSession; depth: number; rootSessionId: string }[] = [];
  for (let r = roots.length - 1; r >= 0; r--) stack.push({ session: roots[r]!, depth: 0, rootSessionId: roots[r]!.sessionId });
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { session, depth, rootSessionId } = next;
    rows.push({ ...session, depth, rootSessionId });
    const kids = children.get(session.sessionId) ?? [];
    for (let k = kids.length - 1; k >= 0; k--) stack.push({ session: kids[k]!, depth: depth + 1, rootSessionId });
  }
  return rows;
}

/** The parent the agent names when it is listed, else the nearest listed ancestor the store knows. */
function listedParent(session: ListedSession, byId: ReadonlyMap<string, ListedSession>, known: KnownSessions | undefined): string | null {
  const named = session.parentSessionId;
  if ((named && byId.has(named)) || !known) return named;
  for (const id of known(session.sessionId)?.ancestorIds ?? []) if (byId.has(id)) return id;
  return named;
}

/**
 * The sessions whose listed parent links lead back to themselves (a self-parent included). Each session is
 * walked once: a walk stops at the first session already settled, so the whole pass is linear.
 */
function sessionsOnParentCycles(parentOf: ReadonlyMap<string, string | null>): Set<string> {
  const onCycle = new Set<string>();
  const walkOf = new Map<string, number>(); // session -> the walk that first reached it
  let walk = 0;
  for (const start of parentOf.keys()) {
    if (walkOf.has(start)) continue;
    walk++;
    const path: string[] = [];
    let current: string | null = start;
    while (current !== null && parentOf.has(current) && !walkOf.has(current)) {
      walkOf.set(current, walk);
      path.push(current);
      current = parentOf.get(current) ?? null;
    }
    // Reaching a session of this same walk closes a cycle: it and everything after it on the path.
    if (current !== null && walkOf.get(current) === walk) {
      for (let i = path.lastIndexOf(current); i < path.length; i++) onCycle.add(path[i]!);
    }
  }
  return onCycle;
}
