// The webview's mirror of the host's session subtree. Every change replaces the affected objects (never
// mutates them), so components can compare by identity and only the changed ones re-render.
import {
  PROTOCOL_MISMATCH_REASON,
  WEBVIEW_PROTOCOL_VERSION,
  type ChatAncestor,
  type ChatSessionData,
  type ChatSessionDelta,
  type ChatSessionHeader,
  type ChatTerminalOutput,
  type AddAttachmentMessage,
  type DeltaMessage,
  type EntryTextAppend,
  type FileSearchResultsMessage,
  type PathAttachment,
  type PromptAttachment,
  type SnapshotMessage,
  type TerminalOutputAppend,
  type ToolCallTextAppend,
} from '../../src/protocol/webviewMessages';
import type { ContentBlock, Entry, ToolCallContent, ToolCallRecord } from '../../src/protocol/transcript';
import { preOrder } from '../../src/presentation';
import { grow, noteGrowth } from './textGrowth';

export interface SessionView {
  readonly header: ChatSessionHeader;
  readonly entries: readonly Entry[];
  readonly toolCalls: Readonly<Record<string, ToolCallRecord>>;
}

/** `incompatible`: the host speaks another protocol version; nothing more is applied. */
export type DeltaResult = 'applied' | 'stale' | 'gap' | 'mismatch' | 'incompatible';

/** Topics components can watch: a session id, or one of these. */
export const TREE_TOPIC = '@tree';
export const TERMINALS_TOPIC = '@terminals';
export const ROOT_TOPIC = '@root';
/** UI state (expanded cards) changed. */
export const UI_TOPIC = '@ui';
/** The host answered the prompt box (file suggestions) or added an attachment to it. */
export const COMPOSER_TOPIC = '@composer';

type Listener = () => void;

/** What the prompt box holds for a session; kept across the webview being hidden and shown again. */
export interface ComposerState {
  readonly draft: string;
  readonly attachments: readonly PromptAttachment[];
}

/** Media is too large for the webview state: only text and path attachments are kept. */
function keepable(attachments: readonly PromptAttachment[]): PromptAttachment[] {
  return attachments.filter((a) => 'path' in a);
}

function isComposerState(value: unknown): value is ComposerState {
  const v = value as Partial<ComposerState> | null;
  return typeof v === 'object' && v !== null && typeof v.draft === 'string' && Array.isArray(v.attachments);
}

export class ChatStore {
  rev: number | undefined;
  rootSessionId: string | undefined;
  ancestors: readonly ChatAncestor[] = [];
  unavailableReason: string | undefined;
  /** The host speaks another protocol version (the extension was updated under this page). */
  incompatible = false;
  private sessions = new Map<string, SessionView>();
  private readonly draftInbox = new Map<string, string>();
  private terminalOutputs = new Map<string, ChatTerminalOutput>();
  private readonly listeners = new Map<string, Set<Listener>>();
  /** UI state: which child cards are expanded inline. */
  private readonly expanded = new Set<string>();
  /** The host's latest answer to the prompt box's file search. */
  fileSuggestions: FileSearchResultsMessage | undefined;
  private readonly composers = new Map<string, ComposerState>();
  /** Attachments added from the editor or the explorer that the prompt box has not taken yet. */
  private attachmentInbox: PathAttachment[] = [];

  session(sessionId: string): SessionView | undefined {
    return this.sessions.get(sessionId);
  }

  terminal(terminalId: string): ChatTerminalOutput | undefined {
    return this.terminalOutputs.get(terminalId);
  }

  /** Sessions parents-before-children, starting at the panel's root. */
  sessionTree(): SessionView[] {
    if (this.rootSessionId === undefined) return [];
    return preOrder([this.rootSessionId], (id) => this.sessions.get(id), (view) => view.header.childIds);
  }


  isExpanded(sessionId: string): boolean {
    return this.expanded.has(sessionId);
  }

  setExpanded(sessionId: string, expanded: boolean): void {
    if (expanded === this.expanded.has(sessionId)) return;
    if (expanded) this.expanded.add(sessionId);
    else this.expanded.delete(sessionId);
    this.emit([sessionId, UI_TOPIC]);
  }

  expandedSessions(): string[] {
    return [...this.expanded];
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
    this.emit([...this.listeners.keys()]);
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
    this.emit([...changed]);
    return 'applied';
  }

  /** Drops what it shows and says why: a message of another protocol version cannot be read safely. */
  private becomeIncompatible(rootSessionId: string): void {
    this.incompatible = true;
    this.rev = this.rev ?? 0;
    this.rootSessionId = this.rootSessionId ?? rootSessionId;
    this.ancestors = [];
    this.unavailableReason = PROTOCOL_MISMATCH_REASON;
    this.sessions = new Map();
    this.terminalOutputs = new Map();
    this.emit([...this.listeners.keys()]);
  }

  composer(sessionId: string): ComposerState | undefined {
    return this.composers.get(sessionId);
  }

  /** Keeps a prompt box's draft and chips (the app persists them with the UI state; the queue is the host's). */
  saveComposer(sessionId: string, state: ComposerState): void {
    const kept = { draft: state.draft, attachments: keepable(state.attachments) };
    if (kept.draft === '' && kept.attachments.length === 0) this.composers.delete(sessionId);
    else this.composers.set(sessionId, kept);
    this.emit([UI_TOPIC]);
  }

  composerStates(): Record<string, ComposerState> {
    return Object.fromEntries(this.composers);
  }

  /** Restores what `composerStates` gave, ignoring anything of another shape (an older page's state). */
  restoreComposers(saved: unknown): void {
    if (typeof saved !== 'object' || saved === null) return;
    for (const [sessionId, state] of Object.entries(saved)) if (isComposerState(state)) this.composers.set(sessionId, state);
  }

  /** Host messages for the prompt box. */
  applyComposer(message: FileSearchResultsMessage | AddAttachmentMessage): void {
    if (message.type === 'fileSearchResults') this.fileSuggestions = message;
    else this.attachmentInbox.push(message.attachment);
    this.emit([COMPOSER_TOPIC]);
  }

  /** Puts words back in a session's prompt box (a message that did not reach the agent, to send again). */
  restoreDraft(sessionId: string, text: string): void {
    this.draftInbox.set(sessionId, text);
    this.emit([COMPOSER_TOPIC]);
  }

  /** The words put back for this session's box since it last looked, if any. */
  takeDraft(sessionId: string): string | undefined {
    const text = this.draftInbox.get(sessionId);
    this.draftInbox.delete(sessionId);
    return text;
  }

  takeAttachments(): PathAttachment[] {
    const taken = this.attachmentInbox;
    this.attachmentInbox = [];
    return taken;
  }

  /** Calls `listener` after changes to `topic` (a session id or one of the *_TOPIC constants). */
  watch(topic: string, listener: Listener): () => void {
    let set = this.listeners.get(topic);
    if (!set) this.listeners.set(topic, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  private emit(topics: readonly string[]): void {
    for (const topic of topics) {
      for (const listener of [...(this.listeners.get(topic) ?? [])]) listener();
    }
  }
}

function viewOf(data: ChatSessionData): SessionView {
  return { header: data.header, entries: data.entries, toolCalls: data.toolCalls };
}

/** `text + suffix` when the append continues exactly where `text` ends; undefined otherwise (resync). */
function appended(text: unknown, append: { readonly offset: number; readonly suffix: string }): string | undefined {
  return grow(text, append)?.to;
}

/** The session after the delta, or undefined when the delta does not fit what we have (resync). */
function applySessionDelta(before: SessionView | undefined, delta: ChatSessionDelta): SessionView | undefined {
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
  const growth = grow(entry.text, append);
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
