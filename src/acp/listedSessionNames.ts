// What the client already knows of the sessions an agent lists (session/list), and the name a listed session
// is shown by. The list often lacks both: opencode gives a loaded child no title, and neither opencode nor
// codex-acp names parents there, while the store knows the child's label and parent from the live stream.
import { t } from '../presentation/l10n';
import { formatDuration } from '../presentation/time';
import type { SessionView } from '../store/model';
import type { KnownSessions, ListedSession } from './sessionListTree';

type Known = Pick<SessionView, 'id' | 'label' | 'parentId' | 'origin' | 'remoteSessionId'>;

/** The id the agent knows a session by: its own, or for a row rebuilt from a tool call the one it named later. */
function agentIdOf(session: Known): string | null {
  return session.origin === 'virtual' ? session.remoteSessionId : session.id;
}

/** A lookup by the agent's session id over one connection's store sessions. */
export function knownSessionsOf(sessions: readonly Known[]): KnownSessions {
  const byId = new Map(sessions.map((session) => [session.id, session]));
  const byAgentId = new Map<string, Known>();
  for (const session of sessions) {
    const agentId = agentIdOf(session);
    if (agentId !== null && !byAgentId.has(agentId)) byAgentId.set(agentId, session);
  }
  // Lazy: nesting stops at the first ancestor that is listed.
  function* ancestorIds(session: Known): Generator<string> {
    const seen = new Set([session.id]);
    for (let parent = byId.get(session.parentId ?? ''); parent && !seen.has(parent.id); parent = byId.get(parent.parentId ?? '')) {
      seen.add(parent.id);
      const agentId = agentIdOf(parent);
      if (agentId !== null) yield agentId;
    }
  }
  return (agentSessionId) => {
    const session = byAgentId.get(agentSessionId);
    return session ? { label: session.label, ancestorIds: ancestorIds(session) } : undefined;
  };
}

/** The agent's title, else the label the tree shows for that id, else words and age: never the id itself. */
export function listedSessionName(session: ListedSession, known: KnownSessions, now: number): string {
  const title = session.title?.trim();
  if (title) return title;
  const label = known(session.sessionId)?.label;
  if (label) return label;
  const at = session.updatedAt ? Date.parse(session.updatedAt) : Number.NaN;
  return Number.isFinite(at) ? t('Untitled session · {0} ago', formatDuration(now - at)) : t('Untitled session');
}
