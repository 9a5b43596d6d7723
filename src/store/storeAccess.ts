// The read side of the session store, which views (tree, chat feed, API) depend on.
import type { ActionPermission, Diagnostic, Direction, PromptCapabilities, SessionActions, SessionView, StoreChange } from './model';
import type { SessionItem } from './sessionControls';
import type { EarlierPage } from './textSpill';

export interface Disposable {
  dispose(): void;
}

export interface SessionStoreReader {
  /** Increases on every change; entries and sessions carry the revision of their last change in `rev`. */
  readonly revision: number;
  getSession(sessionId: string): SessionView | undefined;
  /** All sessions in tree pre-order: parents before children, siblings in order of first appearance. */
  listSessions(): readonly SessionView[];
  /** What a client may do to the session now, with reasons when not. */
  actionsFor(sessionId: string): SessionActions;
  /** Prompt content the agent accepts (from its initialize response); nothing beyond text and links until then. */
  promptCapabilities(): PromptCapabilities;
  /** What a client may do to one tool call or agent terminal of the session now (v2 per-item cancel); without an item, to its items at all. */
  itemActionsFor(sessionId: string, item?: SessionItem): { readonly cancel: ActionPermission };
  /** The sessions whose actions may differ after these sessions changed their own fields (see controlsAffectedBy). */
  controlsAffectedBy(changed: Iterable<string>): ReadonlySet<string>;
  /** Changes whenever a fact every session's actions read changes (connected, steering, loadSession, version). */
  controlFactsKey(): string;
  readonly diagnostics: readonly Diagnostic[];
  /** The session's cwd, or its nearest ancestor's while unset (ACP: children inherit). */
  effectiveCwd(sessionId: string): string | null;
  /** Fires synchronously after each ingested message that changed something. */
  onDidChange(listener: (changes: readonly StoreChange[]) => void): Disposable;
  /** The page of a message's earlier text ending at `end` (textSpill.ts); absent on readers that keep all text in memory. */
  earlierPage?(sessionId: string, entryId: string, end: number): Promise<EarlierPage | undefined>;
  /** A message's whole text, its earlier part read back; absent on readers that keep all text in memory. */
  wholeText?(sessionId: string, entryId: string): Promise<string | undefined>;
}

/** The write side: every JSON-RPC message on a connection, in both directions, in wire order. */
export interface SessionStoreWriter {
  ingest(message: unknown, direction: Direction, line?: number): void;
  /** The agent process went away: live sessions show `disconnected`, nothing is removed. */
  markDisconnected(): void;
}
