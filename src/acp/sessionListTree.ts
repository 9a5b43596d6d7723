// Orders `session/list` entries as a tree: entries naming a listed parent (draft `parentSessionId`) nest
// under it, in the agent's order; the rest are roots. Cycles and unknown parents fall back to roots.

export interface ListedSession {
  readonly sessionId: string;
  readonly title: string | null;
  readonly cwd: string | null;
  readonly updatedAt: string | null;
  readonly parentSessionId: string | null;
  readonly parentToolCallId: string | null;
  readonly subagentId: string | null;
}

export interface ListedSessionRow extends ListedSession {
  readonly depth: number;
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** Reads `session/list` result entries leniently; entries without a sessionId are dropped. */
export function readListedSessions(raw: unknown): ListedSession[] {
  if (!Array.isArray(raw)) return [];
  const out: ListedSession[] = [];
  for (const item of raw) {
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

export function nestListedSessions(sessions: readonly ListedSession[]): ListedSessionRow[] {
  const byId = new Map(sessions.map((s) => [s.sessionId, s]));
  const children = new Map<string, ListedSession[]>();
  const roots: ListedSession[] = [];
  for (const session of sessions) {
    const parent = session.parentSessionId;
    if (parent && parent !== session.sessionId && byId.has(parent) && !leadsBackTo(session.sessionId, parent, byId)) {
      const list = children.get(parent) ?? [];
      list.push(session);
      children.set(parent, list);
    } else roots.push(session);
  }
  const rows: ListedSessionRow[] = [];
  const visit = (session: ListedSession, depth: number): void => {
    rows.push({ ...session, depth });
    for (const child of children.get(session.sessionId) ?? []) visit(child, depth + 1);
  };
  for (const root of roots) visit(root, 0);
  return rows;
}

/** Whether following parents from `parentId` reaches `sessionId` (a cycle). */
function leadsBackTo(sessionId: string, parentId: string, byId: ReadonlyMap<string, ListedSession>): boolean {
  const seen = new Set<string>();
  for (let current: string | null = parentId; current && !seen.has(current); current = byId.get(current)?.parentSessionId ?? null) {
    if (current === sessionId) return true;
    seen.add(current);
  }
  return false;
}
