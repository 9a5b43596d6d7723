// Builds the delta that brings a webview from what it holds (WebviewHoldings) to the store now, reading only
// what the pending changes name: changed header fields, changed entries by index, text as appends where it
// only grew, sessions that joined or left the panel's tree, ancestors and terminals.
import type { Entry, SessionView, ToolCallRecord } from '../store/model';
import type { SessionStoreReader } from '../store/storeAccess';
import {
  WEBVIEW_PROTOCOL_VERSION,
  type ChatSessionDelta,
  type ChatSessionHeader,
  type DeltaMessage,
  type EntryTextAppend,
  type ToolCallTextAppend,
} from '../protocol/webviewMessages';
import { ancestorsOf, controlsChanged, isSameOrDescendant, sessionControls, sessionData, sessionHeader, subtreeSessions, terminalsOf, type SessionControls } from './chatProjection';
import { sameJson } from '../protocol/sameJson';
import type { PendingChanges } from './pendingChanges';
import type { WebviewHoldings } from './webviewHoldings';

/** The header fields that differ from what was sent (all of them when nothing was). */
function headerChanges(before: ChatSessionHeader | undefined, after: ChatSessionHeader): Partial<ChatSessionHeader> | undefined {
  if (!before) return after;
  const changes: Record<string, unknown> = {};
  let any = false;
  for (const key of Object.keys(after) as (keyof ChatSessionHeader)[]) {
    const a = before[key];
    const b = after[key];
    if (sameJson(a, b)) continue;
    changes[key] = b;
    any = true;
  }
  return any ? (changes as Partial<ChatSessionHeader>) : undefined;
}

/** Entry id -> index, extended as entries are appended and rebuilt when the list changed otherwise. */
class EntryIndex {
  private readonly indexById = new Map<string, number>();
  private indexedLength = 0;

  indexOf(entries: readonly Entry[], entryId: string): number {
    const known = this.indexById.get(entryId);
    if (known !== undefined && entries[known]?.id === entryId) return known;
    if (known !== undefined || this.indexedLength > entries.length) this.reset();
    for (; this.indexedLength < entries.length; this.indexedLength++) {
      const entry = entries[this.indexedLength];
      if (entry) this.indexById.set(entry.id, this.indexedLength);
    }
    const found = this.indexById.get(entryId);
    if (found !== undefined && entries[found]?.id === entryId) return found;
    this.reset();
    return entries.findIndex((entry) => entry.id === entryId);
  }

  private reset(): void {
    this.indexById.clear();
    this.indexedLength = 0;
  }
}

/** Each held session's place in the panel's order, per map of held sessions (a rebuild makes a new map; updates keep its keys). */
const heldOrders = new WeakMap<ReadonlyMap<string, unknown>, { readonly size: number; readonly order: Map<string, number> }>();

function heldOrder(sessions: ReadonlyMap<string, unknown>): ReadonlyMap<string, number> {
  const known = heldOrders.get(sessions);
  if (known && known.size === sessions.size) return known.order;
  const order = new Map<string, number>();
  for (const id of sessions.keys()) order.set(id, order.size);
  heldOrders.set(sessions, { size: sessions.size, order });
  return order;
}

export class DeltaBuilder {
  private readonly entryIndexes = new Map<string, EntryIndex>();
  /** The store's control facts at the last build: when they change, every session's actions are asked again. */
  private controlFactsKey: string | undefined;

  constructor(
    private readonly store: SessionStoreReader,
    private readonly rootSessionId: string,
  ) {}

  /** The delta from `fromRev`, or undefined when nothing the webview shows changed; records it as held. */
  build(fromRev: number, pending: PendingChanges, held: WebviewHoldings): DeltaMessage | undefined {
    const factsKey = this.store.controlFactsKey();
    const factsChanged = factsKey !== this.controlFactsKey;
    this.controlFactsKey = factsKey;
    // Only the sessions whose actions may have changed are asked again (the store says which): asking all of them
    // at every post cost each update the number of sessions in the chat (50 µs per child).
    const controlsToCheck = pending.treeChanged || factsChanged ? undefined : this.store.controlsAffectedBy(pending.ownChanges);
    // The panel's sessions are the ones it holds unless the tree moved or a session goes whole: then every session
    // is read and projected. Otherwise only those the store named, so an update in a parent of 500 subagents does
    // not project all 500 (their held ids are only looked up).
    const named = controlsToCheck === undefined || pending.wholeSessions.size > 0 ? undefined : this.namedSessions(pending, held, controlsToCheck);
    const deltas: ChatSessionDelta[] = [];
    let removedSessionIds: string[] = [];
    let looked: SessionView[];
    if (named) {
      looked = named;
      for (const session of named) {
        const sent = held.sessions.get(session.id)!;
        const { delta, header } = this.changedSession(session, sent, controlsToCheck, pending, held);
        held.sessions.set(session.id, header);
        if (delta) deltas.push(delta);
      }
    } else {
      looked = subtreeSessions(this.store, this.rootSessionId);
      const nextHeld = new Map<string, ChatSessionHeader>();
      for (const session of looked) {
        const sent = held.sessions.get(session.id);
        if (sent === undefined || pending.wholeSessions.has(session.id)) {
          const full = sessionData(this.store, session);
          nextHeld.set(session.id, full.header);
          held.forgetTexts(session.id);
          deltas.push({ sessionId: session.id, full });
          continue;
        }
        const { delta, header } = this.changedSession(session, sent, controlsToCheck, pending, held);
        nextHeld.set(session.id, header);
        if (delta) deltas.push(delta);
      }
      removedSessionIds = [...held.sessions.keys()].filter((id) => !nextHeld.has(id));
      for (const id of removedSessionIds) held.forgetTexts(id);
      held.sessions = nextHeld;
    }

    const ancestors = ancestorsOf(this.store, this.rootSessionId);
    const ancestorsChanged = held.ancestorsChanged(ancestors);
    const { terminals, terminalAppends } = held.changedTerminals(terminalsOf(looked));

    if (deltas.length === 0 && removedSessionIds.length === 0 && !ancestorsChanged && terminals.length === 0 && terminalAppends.length === 0) {
      return undefined;
    }
    return {
      type: 'delta',
      protocolVersion: WEBVIEW_PROTOCOL_VERSION,
      fromRev,
      toRev: Math.max(this.store.revision, fromRev + 1),
      sessions: deltas,
      ...(removedSessionIds.length > 0 ? { removedSessionIds } : {}),
      ...(ancestorsChanged ? { ancestors } : {}),
      ...(terminals.length > 0 ? { terminals } : {}),
      ...(terminalAppends.length > 0 ? { terminalAppends } : {}),
    };
  }

  /**
   * The held sessions the pending changes name (their entries, their headers, or actions the store says a change
   * may have moved), in the panel's order; undefined when one of them is not where the webview has it (then the
   * whole tree is looked at).
   */
  private namedSessions(pending: PendingChanges, held: WebviewHoldings, controlsToCheck: ReadonlySet<string>): SessionView[] | undefined {
    const ids = new Set<string>([...pending.entries.keys(), ...pending.dirtyHeaders, ...controlsToCheck]);
    // Looked up by name and put in the panel's order, not found by a pass over every held session: a chunk
    // streamed into a parent of 500 subagents names one session.
    const order = heldOrder(held.sessions);
    const named: { session: SessionView; at: number }[] = [];
    for (const id of ids) {
      const at = order.get(id);
      if (at === undefined) {
        // A name the webview does not hold (a session outside this panel's tree) changes nothing here.
        if (this.store.getSession(id) && isSameOrDescendant(this.store, id, this.rootSessionId)) return undefined;
        continue;
      }
      const session = this.store.getSession(id);
      if (!session || session.id !== id) return undefined;
      named.push({ session, at });
    }
    return named.sort((a, b) => a.at - b.at).map(({ session }) => session);
  }

  /** One held session's delta, its controls asked again where `controlsToCheck` says (all of them when undefined). */
  private changedSession(
    session: SessionView,
    sent: ChatSessionHeader,
    controlsToCheck: ReadonlySet<string> | undefined,
    pending: PendingChanges,
    held: WebviewHoldings,
  ): { delta: ChatSessionDelta | undefined; header: ChatSessionHeader } {
    const checked = controlsToCheck === undefined || controlsToCheck.has(session.id);
    const controls = checked ? sessionControls(this.store, session.id) : { actions: sent.actions, toolCallCancel: sent.toolCallCancel };
    return this.sessionDelta(session, sent, controls, checked && controlsChanged(controls, sent), pending, held);
  }

  private sessionDelta(
    session: SessionView,
    sentHeader: ChatSessionHeader,
    controls: SessionControls,
    controlsDirty: boolean,
    pending: PendingChanges,
    held: WebviewHoldings,
  ): { delta: ChatSessionDelta | undefined; header: ChatSessionHeader } {
    const headerDirty = controlsDirty || pending.headerDirty(session.id);
    const entryIds = pending.entries.get(session.id);
    if (!headerDirty && !entryIds) return { delta: undefined, header: sentHeader };
    // The controls were just read to see whether they changed: the header takes them rather than asking again.
    const header = headerDirty ? sessionHeader(this.store, session, controls) : sentHeader;
    const changedHeader = headerDirty ? headerChanges(sentHeader, header) : undefined;
    const entries: { index: number; entry: Entry }[] = [];
    const appends: EntryTextAppend[] = [];
    const toolCalls: ToolCallRecord[] = [];
    const toolCallAppends: ToolCallTextAppend[] = [];
    if (entryIds) {
      let index = this.entryIndexes.get(session.id);
      if (!index) this.entryIndexes.set(session.id, (index = new EntryIndex()));
      for (const entryId of entryIds) {
        const at = index.indexOf(session.entries, entryId);
        const entry = session.entries[at];
        if (at < 0 || !entry) continue;
        const append = held.entryAppend(session.id, at, entry, pending.appendedTo(entry.id));
        if (append) appends.push(append);
        else entries.push({ index: at, entry });
        if (entry.kind === 'toolCall') {
          const toolCall = session.toolCalls[entry.toolCallId];
          if (toolCall) held.toolCallChange(session.id, toolCall, toolCalls, toolCallAppends);
        }
      }
      entries.sort((a, b) => a.index - b.index);
    }
    if (!changedHeader && entries.length === 0 && appends.length === 0 && toolCalls.length === 0 && toolCallAppends.length === 0 && !entryIds) {
      return { delta: undefined, header };
    }
    const delta: ChatSessionDelta = {
      sessionId: session.id,
      ...(changedHeader ? { header: changedHeader } : {}),
      ...(entries.length > 0 ? { entries } : {}),
      ...(appends.length > 0 ? { appends } : {}),
      entryCount: session.entries.length,
      ...(toolCalls.length > 0 ? { toolCalls } : {}),
      ...(toolCallAppends.length > 0 ? { toolCallAppends } : {}),
    };
    return { delta, header };
  }
}
