// The webview's mirror of the host's session subtree: snapshots and revisioned deltas applied, nothing else.
// Every change replaces the affected objects (never mutates them), so components can compare by identity and
// only the changed ones re-render.
import {
  WEBVIEW_PROTOCOL_VERSION,
  type ChatAncestor,
  type ChatSessionData,
  type ChatSessionDelta,
  type ChatSessionHeader,
  type ChatTerminalOutput,
  type DeltaMessage,
  type EarlierTextMessage,
  type EntryTextAppend,
  type SnapshotMessage,
  type TerminalOutputAppend,
  type ToolCallTextAppend,
} from '../../src/protocol/webviewMessages';
import type { ContentBlock, Entry, ToolCallContent, ToolCallRecord } from '../../src/protocol/transcript';
import { preOrder, protocolMismatchReason } from '../../src/presentation';
import { grow, noteGrowth } from './textGrowth';
import { ROOT_TOPIC, TERMINALS_TOPIC, TopicBus, TREE_TOPIC } from './topics';

/** One session as the chat shows it (not the store's SessionView, which the host keeps). */
export interface ChatSessionView {
  readonly header: ChatSessionHeader;
  readonly entries: readonly Entry[];
  readonly toolCalls: Readonly<Record<string, ToolCallRecord>>;
}

/** `incompatible`: the host speaks another protocol version; nothing more is applied. */
export type DeltaResult = 'applied' | 'stale' | 'gap' | 'mismatch' | 'incompatible';

export class ChatMirror {
  rev: number | undefined;
  rootSessionId: string | undefined;
  ancestors: readonly ChatAncestor[] = [];
  unavailableReason: string | undefined;
  /** The host speaks another protocol version (the extension was updated under this page). */
  incompatible = false;
  private sessions = new Map<string, ChatSessionView>();
  private terminalOutputs = new Map<string, ChatTerminalOutput>();

  constructor(private readonly bus = new TopicBus()) {}

  session(sessionId: string): ChatSessionView | undefined {
    return this.sessions.get(sessionId);
  }

  terminal(terminalId: string): ChatTerminalOutput | undefined {
    return this.terminalOutputs.get(terminalId);
  }

  /** Sessions parents-before-children, starting at the panel's root. */
  sessionTree(): ChatSessionView[] {
    if (this.rootSessionId === undefined) return [];
    return preOrder([this.rootSessionId], (id) => this.sessions.get(id), (view) => view.header.childIds);
  }

  applySnapshot(message: SnapshotMessage): void {
    if (message.protocolVersion !== WEBVIEW_PROTOCOL_VERSION) {
      this.becomeIncompatible(message.rootSessionId);
      return;
    }
    this.incompatible = false;
    this.rev = message.rev;
    this.rootSessionId = message.rootSessionId;
    this.ancestors = message.ancestors;
    this.unavailableReason = message.unavailableReason;
    this.sessions = new Map(message.sessions.map((data) => [data.header.id, viewOf(data)] as const));
    this.terminalOutputs = new Map(message.terminals.map((t) => [t.terminalId, t] as const));
    this.bus.emitAll();
  }

  /** Applies a delta when it continues from our revision; otherwise says why not (the caller resyncs). */
  applyDelta(message: DeltaMessage): DeltaResult {
    if (this.incompatible) return 'incompatible';
    if (message.protocolVersion !== WEBVIEW_PROTOCOL_VERSION) {
      this.becomeIncompatible(this.rootSessionId ?? '');
      return 'incompatible';
    }
    if (this.rev === undefined) return 'gap';
    if (message.toRev <= this.rev) return 'stale';
    if (message.fromRev !== this.rev) return 'gap';
    const changed = new Set<string>();
    let treeChanged = false;
    for (const delta of message.sessions) {
      const before = this.sessions.get(delta.sessionId);
      const after = applySessionDelta(before, delta);
      if (!after) return 'mismatch';
      if (after === before) continue;
      this.sessions.set(delta.sessionId, after);
      changed.add(delta.sessionId);
      if (!before || before.header !== after.header) treeChanged = true;
    }
    for (const id of message.removedSessionIds ?? []) {
      if (this.sessions.delete(id)) {
        changed.add(id);
        treeChanged = true;
      }
    }
    if (message.ancestors) {
      this.ancestors = message.ancestors;
      changed.add(ROOT_TOPIC);
    }
    if ((message.terminals && message.terminals.length > 0) || (message.terminalAppends && message.terminalAppends.length > 0)) {
      const next = applyTerminals(this.terminalOutputs, message.terminals ?? [], message.terminalAppends ?? []);
      if (!next) return 'mismatch';
      this.terminalOutputs = next;
      changed.add(TERMINALS_TOPIC);
    }
    this.rev = message.toRev;
    if (treeChanged) changed.add(TREE_TOPIC);
    this.bus.emit([...changed]);
    return 'applied';
  }

  /**
   * Puts a page of a message's earlier text the host read back from disk before the text the chat holds. Outside
   * the revisions: the page is older than anything a delta changes. A page that no longer meets the text (the
   * entry was sent again since it was asked for) is dropped; the chat can ask again.
   */
  prependEarlier(message: EarlierTextMessage): boolean {
    const view = this.sessions.get(message.sessionId);
    const index = view?.entries.findIndex((entry) => entry.id === message.entryId) ?? -1;
    const entry = view?.entries[index];
    if (!view || !message.page || entry?.kind !== 'message' || entry.earlier?.chars !== message.end) return false;
    const { start, text, bytesBefore } = message.page;
    const { earlier: _held, ...rest } = entry;
    const joined: Entry = { ...rest, text: text + entry.text, ...(start > 0 ? { earlier: { chars: start, bytes: bytesBefore } } : {}) };
    const entries = view.entries.slice();
    entries[index] = joined;
    this.sessions.set(message.sessionId, { ...view, entries });
    this.bus.emit([message.sessionId]);
    return true;
  }

  /** Drops what it shows and says why: a message of another protocol version cannot be read safely. */
  private becomeIncompatible(rootSessionId: string): void {
    this.incompatible = true;
    this.rev = this.rev ?? 0;
    this.rootSessionId = this.rootSessionId ?? rootSessionId;
    this.ancestors = [];
    this.unavailableReason = protocolMismatchReason();
    this.sessions = new Map();
    this.terminalOutputs = new Map();
    this.bus.emitAll();
  }
}

function viewOf(data: ChatSessionData): ChatSessionView {
  return { header: data.header, entries: data.entries, toolCalls: data.toolCalls };
}

/** `text + suffix` when the append continues exactly where `text` ends; undefined otherwise (resync). */
function appended(text: unknown, append: { readonly offset: number; readonly suffix: string }): string | undefined {
  return grow(text, append)?.to;
}

/** The session after the delta, or undefined when the delta does not fit what we have (resync). */
function applySessionDelta(before: ChatSessionView | undefined, delta: ChatSessionDelta): ChatSessionView | undefined {
  if (delta.full) return viewOf(delta.full);
  if (!before) return undefined;
  let entries = before.entries;
  if ((delta.entries && delta.entries.length > 0) || (delta.appends && delta.appends.length > 0)) {
    // One copy of the list per delta; only the changed entries get new objects (components compare by identity).
    const next = entries.slice();
    for (const { index, entry } of delta.entries ?? []) {
      if (index < next.length) {
        if (next[index]?.id !== entry.id) return undefined;
        next[index] = entry;
      } else if (index === next.length) {
        next.push(entry);
      } else {
        return undefined;
      }
    }
    for (const append of delta.appends ?? []) {
      const entry = applyEntryAppend(next[append.index], append);
      if (!entry) return undefined;
      next[append.index] = entry;
    }
    entries = next;
  }
  if (delta.entryCount !== undefined && delta.entryCount !== entries.length) return undefined;
  let toolCalls = before.toolCalls;
  if ((delta.toolCalls && delta.toolCalls.length > 0) || (delta.toolCallAppends && delta.toolCallAppends.length > 0)) {
    const next: Record<string, ToolCallRecord> = { ...toolCalls };
    for (const toolCall of delta.toolCalls ?? []) next[toolCall.toolCallId] = toolCall;
    for (const append of delta.toolCallAppends ?? []) {
      const toolCall = applyToolCallAppend(next[append.toolCallId], append);
      if (!toolCall) return undefined;
      next[append.toolCallId] = toolCall;
    }
    toolCalls = next;
  }
  const header = delta.header ? { ...before.header, ...delta.header, id: before.header.id } : before.header;
  if (header === before.header && entries === before.entries && toolCalls === before.toolCalls) return before;
  return { header, entries, toolCalls };
}

function applyEntryAppend(entry: Entry | undefined, append: EntryTextAppend): Entry | undefined {
  if (!entry || entry.id !== append.entryId || (entry.kind !== 'message' && entry.kind !== 'sessionMessage')) return undefined;
  const start = entry.kind === 'message' ? (entry.earlier?.chars ?? 0) : 0;
  const growth = grow(entry.text, { offset: append.offset - start, suffix: append.suffix });
  return growth && noteGrowth({ ...entry, text: growth.to, rev: append.rev }, growth);
}

function applyToolCallAppend(toolCall: ToolCallRecord | undefined, append: ToolCallTextAppend): ToolCallRecord | undefined {
  const item = toolCall?.content[append.contentIndex];
  if (!toolCall || item?.type !== 'content') return undefined;
  const block = (item as { content?: ContentBlock }).content;
  const growth = grow(block?.text, append);
  if (!growth || !block) return undefined;
  const content = toolCall.content.slice();
  content[append.contentIndex] = { ...item, content: noteGrowth({ ...block, text: growth.to }, growth) } as ToolCallContent;
  return { ...toolCall, content };
}

/** The terminals after whole replacements and appends, or undefined when an append does not fit. */
function applyTerminals(
  before: ReadonlyMap<string, ChatTerminalOutput>,
  whole: readonly ChatTerminalOutput[],
  appends: readonly TerminalOutputAppend[],
): Map<string, ChatTerminalOutput> | undefined {
  const next = new Map(before);
  for (const output of whole) next.set(output.terminalId, output);
  for (const append of appends) {
    const terminal = next.get(append.terminalId);
    const output = appended(terminal?.output, append);
    if (!terminal || output === undefined) return undefined;
    next.set(append.terminalId, { ...terminal, output });
  }
  return next;
}
