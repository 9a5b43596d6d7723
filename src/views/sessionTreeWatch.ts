// What the tree's clock and badge need, kept up to date from store changes (no vscode): the sessions whose
// elapsed time ticks and the sessions waiting for the user, per connection. The 1 s tick and the badge read
// these sets instead of walking every session of every connection.
import type { SessionView } from '../store/model';
import { isWorking } from '../presentation/sessionState';
import { needsUser } from './sessionTreeModel';

export interface WatchedRuntime {
  readonly id: string;
  readonly live: boolean;
  readonly store: { getSession(id: string): SessionView | undefined; listSessions(): Iterable<SessionView> };
}

export class SessionTreeWatch {
  private readonly working = new Map<string, Set<string>>();
  private readonly waiting = new Map<string, Set<string>>();

  /** One session changed (or went away): O(1). */
  note(runtime: WatchedRuntime, sessionId: string): void {
    const session = runtime.store.getSession(sessionId);
    toggle(this.working, runtime.id, sessionId, !!session && isWorking(session.state));
    toggle(this.waiting, runtime.id, sessionId, !!session && needsUser(session));
  }

  /** The set of connections changed (rare): rebuild from their stores and forget connections that are gone. */
  sync(runtimes: Iterable<WatchedRuntime>): void {
    this.working.clear();
    this.waiting.clear();
    for (const runtime of runtimes) for (const session of runtime.store.listSessions()) this.note(runtime, session.id);
  }

  /** Sessions whose elapsed time moves: running or waiting for the user. */
  *ticking(): Generator<{ readonly connectionId: string; readonly sessionId: string }> {
    for (const [connectionId, ids] of this.working) for (const sessionId of ids) yield { connectionId, sessionId };
  }

  /** Sessions of live connections that work (`working`, waiting ones included) or wait for the user (`waiting`). */
  *liveSessions<R extends WatchedRuntime>(kind: 'working' | 'waiting', runtimes: Iterable<R>): Generator<{ readonly runtime: R; readonly session: SessionView }> {
    const sets = kind === 'working' ? this.working : this.waiting;
    for (const runtime of runtimes) {
      if (!runtime.live) continue;
      for (const sessionId of sets.get(runtime.id) ?? []) {
        const session = runtime.store.getSession(sessionId);
        if (session) yield { runtime, session };
      }
    }
  }

  /** The view badge: sessions of live connections that wait for the user. */
  badgeCount(runtimes: Iterable<WatchedRuntime>): number {
    let count = 0;
    for (const runtime of runtimes) if (runtime.live) count += this.waiting.get(runtime.id)?.size ?? 0;
    return count;
  }
}

function toggle(sets: Map<string, Set<string>>, connectionId: string, sessionId: string, member: boolean): void {
  let ids = sets.get(connectionId);
  if (member) {
    if (!ids) sets.set(connectionId, (ids = new Set()));
    ids.add(sessionId);
  } else if (ids?.delete(sessionId) && ids.size === 0) sets.delete(connectionId);
}
