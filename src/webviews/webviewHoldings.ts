// What one webview holds, as the feed last sent it: each session's header, the ancestors, and of every text
// (entry, tool call, terminal) its length and tail. A text that only grew goes as an append at the held length;
// anything else goes whole. Each check records what is sent, so the record is what the webview has after the post.
import type { Entry, ToolCallRecord } from '../store/model';
import { viewSafeToolCall } from './viewSafeToolCall';
import type {
  ChatAncestor,
  ChatSessionHeader,
  ChatTerminalOutput,
  EntryTextAppend,
  SnapshotMessage,
  TerminalOutputAppend,
  ToolCallTextAppend,
} from '../protocol/webviewMessages';

/** What the webview holds of one text: its length and its last characters. */
interface HeldText {
  readonly length: number;
  readonly tail: string;
}

const HELD_TAIL = 64;

function heldText(text: string): HeldText {
  return { length: text.length, tail: text.slice(-HELD_TAIL) };
}

/**
 * The text added after what the webview holds, when `text` extends it; undefined when it changed otherwise.
 * Checked by length and the held tail, not the whole prefix: the store only appends to these texts, and a
 * full comparison would make every chunk cost the size of the message again.
 */
function suffixAfter(held: HeldText | undefined, text: string, start = 0): string | undefined {
  if (!held || start + text.length < held.length || held.length - held.tail.length < start) return undefined;
  if (text.slice(held.length - held.tail.length - start, held.length - start) !== held.tail) return undefined;
  return text.slice(held.length - start);
}

/**
 * Where a message's `text` starts in the whole message: after what the host keeps on disk (textSpill.ts). Appends
 * count from the message's start, so moving a head to disk changes nothing the webview already has.
 */
function textStart(entry: Entry): number {
  return entry.kind === 'message' ? (entry.earlier?.chars ?? 0) : 0;
}

/** An entry's fields other than its appendable text, as a key (undefined for entries without text). */
function entryShape(entry: Entry): string | undefined {
  if (entry.kind !== 'message' && entry.kind !== 'sessionMessage') return undefined;
  // Attachments only grow; their count stands for them (an image's data would cost its size per chunk).
  return JSON.stringify(entry, (key, value: unknown) =>
    key === 'text' || key === 'rev' || key === 'earlier' ? undefined : key === 'attachments' && Array.isArray(value) ? value.length : value,
  );
}

interface HeldEntry {
  readonly shape: string;
  readonly text: HeldText;
}

/** The text of each `content` item that holds a text block (undefined for other items). */
function toolCallTexts(toolCall: ToolCallRecord): (string | undefined)[] {
  return toolCall.content.map((item) => {
    const block = item.type === 'content' ? (item as { content?: unknown }).content : undefined;
    const text = typeof block === 'object' && block !== null ? (block as { text?: unknown }).text : undefined;
    return typeof text === 'string' ? text : undefined;
  });
}

/** A tool call without the texts toolCallTexts returns, as a key. */
function toolCallShape(toolCall: ToolCallRecord, texts: readonly (string | undefined)[]): string {
  const content = toolCall.content.map((item, i) =>
    texts[i] === undefined ? item : { ...item, content: { ...(item as { content: object }).content, text: '' } },
  );
  return JSON.stringify({ ...toolCall, content });
}

interface HeldToolCall {
  readonly shape: string;
  readonly texts: readonly (HeldText | undefined)[];
}

interface HeldTerminal {
  readonly output: HeldText;
  readonly status: string;
}

function terminalStatus(terminal: ChatTerminalOutput): string {
  // Dropped output moves the text's start: then it goes whole, never as an append at a stale offset.
  return `${terminal.command}\0${terminal.args.join('\0')}:${terminal.truncated}:${terminal.droppedChars ?? 0}:${JSON.stringify(terminal.exitStatus)}`;
}

function heldTerminal(terminal: ChatTerminalOutput): HeldTerminal {
  return { output: heldText(terminal.output), status: terminalStatus(terminal) };
}

export class WebviewHoldings {
  /** Sessions the webview has, with the header it was last sent. */
  sessions = new Map<string, ChatSessionHeader>();
  private ancestors = '';
  private terminals = new Map<string, HeldTerminal>();
  /** Per session: what the webview holds of entry texts and tool calls, recorded when sent whole or appended. */
  private entries = new Map<string, Map<string, HeldEntry>>();
  private toolCalls = new Map<string, Map<string, HeldToolCall>>();

  /** The webview is given this snapshot: it holds exactly that. */
  tookSnapshot(snapshot: SnapshotMessage): void {
    this.sessions = new Map(snapshot.sessions.map((data) => [data.header.id, data.header] as const));
    this.ancestors = JSON.stringify(snapshot.ancestors);
    this.terminals = new Map(snapshot.terminals.map((t) => [t.terminalId, heldTerminal(t)] as const));
    // Texts are recorded lazily: an entry's first change after a snapshot goes whole, later ones as appends.
    this.entries = new Map();
    this.toolCalls = new Map();
  }

  /** The session's texts go whole next time (it was sent whole, or left the panel). */
  forgetTexts(sessionId: string): void {
    this.entries.delete(sessionId);
    this.toolCalls.delete(sessionId);
  }

  /** Whether the ancestors differ from those the webview has; records them as sent. */
  ancestorsChanged(ancestors: readonly ChatAncestor[]): boolean {
    const json = JSON.stringify(ancestors);
    const changed = json !== this.ancestors;
    this.ancestors = json;
    return changed;
  }

  /**
   * An append when the entry's only change since it was sent is text added at the end; records what is sent.
   * `told`: the text the store said it appended since the last post (null when it changed the entry otherwise).
   */
  entryAppend(sessionId: string, index: number, entry: Entry, told: string | null | undefined): EntryTextAppend | undefined {
    const shape = entryShape(entry);
    let held = this.entries.get(sessionId);
    if (shape === undefined || (entry.kind !== 'message' && entry.kind !== 'sessionMessage')) {
      held?.delete(entry.id);
      return undefined;
    }
    if (!held) this.entries.set(sessionId, (held = new Map()));
    const before = held.get(entry.id);
    const start = textStart(entry);
    const length = start + entry.text.length;
    // The store told us what it appended: no need to read the text (reading a long streamed text costs its length).
    if (before?.shape === shape && typeof told === 'string' && before.text.length + told.length === length) {
      held.set(entry.id, { shape, text: { length, tail: (before.text.tail + told).slice(-HELD_TAIL) } });
      return { index, entryId: entry.id, rev: entry.rev, offset: before.text.length, suffix: told };
    }
    held.set(entry.id, { shape, text: { length, tail: entry.text.slice(-HELD_TAIL) } });
    const suffix = before?.shape === shape ? suffixAfter(before.text, entry.text, start) : undefined;
    if (suffix === undefined || !before) return undefined;
    return { index, entryId: entry.id, rev: entry.rev, offset: before.text.length, suffix };
  }

  /** Adds the tool call whole, or appends to its texts when nothing else changed; records what is sent. */
  toolCallChange(sessionId: string, stored: ToolCallRecord, whole: ToolCallRecord[], appends: ToolCallTextAppend[]): void {
    const toolCall = viewSafeToolCall(stored);
    let held = this.toolCalls.get(sessionId);
    if (!held) this.toolCalls.set(sessionId, (held = new Map()));
    const texts = toolCallTexts(toolCall);
    const shape = toolCallShape(toolCall, texts);
    const before = held.get(toolCall.toolCallId);
    held.set(toolCall.toolCallId, { shape, texts: texts.map((text) => (text === undefined ? undefined : heldText(text))) });
    if (before?.shape !== shape) {
      whole.push(toolCall);
      return;
    }
    const found: ToolCallTextAppend[] = [];
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i];
      if (text === undefined) continue;
      const suffix = suffixAfter(before.texts[i], text);
      if (suffix === undefined) {
        whole.push(toolCall);
        return;
      }
      if (suffix !== '') found.push({ toolCallId: toolCall.toolCallId, contentIndex: i, offset: before.texts[i]!.length, suffix });
    }
    appends.push(...found);
  }

  /** The terminals that changed since they were sent: whole, or as appends to their output. */
  changedTerminals(current: readonly ChatTerminalOutput[]): { terminals: ChatTerminalOutput[]; terminalAppends: TerminalOutputAppend[] } {
    const terminals: ChatTerminalOutput[] = [];
    const terminalAppends: TerminalOutputAppend[] = [];
    for (const terminal of current) {
      const before = this.terminals.get(terminal.terminalId);
      const status = terminalStatus(terminal);
      const suffix = before?.status === status ? suffixAfter(before.output, terminal.output) : undefined;
      if (suffix === '') continue;
      this.terminals.set(terminal.terminalId, { output: heldText(terminal.output), status });
      if (suffix !== undefined && before) terminalAppends.push({ terminalId: terminal.terminalId, offset: before.output.length, suffix });
      else terminals.push(terminal);
    }
    return { terminals, terminalAppends };
  }
}
