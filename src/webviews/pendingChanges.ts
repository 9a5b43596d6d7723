// What changed in the store since the feed last posted, as the store's change events said: which headers,
// which entries (and the text appended to each), which sessions must go whole, whether the tree moved.
import type { StoreChange } from '../store/model';

export class PendingChanges {
  /** Per session: the entries that changed. */
  readonly entries = new Map<string, Set<string>>();
  /** Per entry: the text the store appended since the last post (null: it changed otherwise). */
  private readonly appended = new Map<string, string | null>();
  private readonly headers = new Set<string>();
  /** Sessions whose entries the store took out (memory bounds): sent whole, since deltas address entries by index. */
  readonly wholeSessions = new Set<string>();
  /** Sessions whose own fields or non-text entries changed (not an ancestor marked for a descendant's change). */
  readonly ownChanges = new Set<string>();
  private tree = false;

  /** Notes a batch of store changes; `parentOf` walks up to the ancestors whose headers a change touches. */
  note(changes: readonly StoreChange[], parentOf: (sessionId: string) => string | null | undefined): void {
    for (const change of changes) {
      if (change.kind === 'tree') this.tree = true;
      else if (change.kind === 'session') {
        this.ownChanges.add(change.sessionId);
        this.markHeaders(change.sessionId, parentOf);
      } else if (change.kind === 'entries') {
        this.wholeSessions.add(change.sessionId);
        this.ownChanges.add(change.sessionId);
        this.markHeaders(change.sessionId, parentOf);
      } else if (change.kind === 'entry' && change.entryId !== undefined) {
        let ids = this.entries.get(change.sessionId);
        if (!ids) this.entries.set(change.sessionId, (ids = new Set()));
        ids.add(change.entryId);
        this.noteAppended(change.entryId, change.appended);
        // A tool call's diff may change the Changes of its session and (tree Changes) of every ancestor.
        if (change.appended === undefined) {
          this.ownChanges.add(change.sessionId);
          this.markHeaders(change.sessionId, parentOf);
        }
      }
    }
  }

  /** Sessions whose headers a change marked (their own change or a descendant's). */
  get dirtyHeaders(): ReadonlySet<string> {
    return this.headers;
  }

  /** A session was added, moved or removed since the last post. */
  get treeChanged(): boolean {
    return this.tree;
  }

  /** Whether the session's header may have changed (its own change, a descendant's, or the tree's). */
  headerDirty(sessionId: string): boolean {
    return this.tree || this.headers.has(sessionId);
  }

  /** The text the store said it appended to an entry since the last post; null once anything else changed it. */
  appendedTo(entryId: string): string | null | undefined {
    return this.appended.get(entryId);
  }

  get any(): boolean {
    return this.tree || this.entries.size > 0 || this.headers.size > 0 || this.wholeSessions.size > 0;
  }

  clear(): void {
    this.entries.clear();
    this.appended.clear();
    this.headers.clear();
    this.wholeSessions.clear();
    this.ownChanges.clear();
    this.tree = false;
  }

  /** The session's header and its ancestors' (their tree Changes include its files). */
  private markHeaders(sessionId: string, parentOf: (sessionId: string) => string | null | undefined): void {
    const seen = new Set<string>();
    for (let id: string | null | undefined = sessionId; id && !seen.has(id); id = parentOf(id)) {
      seen.add(id);
      this.headers.add(id);
    }
  }

  private noteAppended(entryId: string, appended: string | undefined): void {
    const before = this.appended.get(entryId);
    if (appended === undefined || before === null) this.appended.set(entryId, null);
    else this.appended.set(entryId, (before ?? '') + appended);
  }
}
