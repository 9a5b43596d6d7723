// Which stored sessions can be reattached to a live agent.
import type { SessionView } from '../store/model';
import type { SessionStore } from '../store/sessionStore';

/**
 * Whether a session of a finished connection can be reattached: only a root this client opened, of an agent
 * that supports session/load or session/resume (ACP never reattaches a child on its own).
 */
export function isReconnectable(runtime: { readonly live: boolean; readonly status: string; readonly store: Pick<SessionStore, 'canReconnect'> }, session: SessionView): boolean {
  return !runtime.live && runtime.status !== 'transcript' && session.parentId === null && session.openedByClient && runtime.store.canReconnect;
}
