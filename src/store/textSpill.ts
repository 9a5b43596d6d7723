// The head of long agent texts on disk, the recent part in memory (issue 23 item 4). Past the held-text bound,
// the oldest agent and thought messages keep their last few thousand characters and give the rest to a vault
// (the host's is a file; the store only knows this interface). The head is cut into pages at line breaks, in
// order, so the chat can read it back one page at a time as the user scrolls up, and an export reads it whole.
// The user's own messages stay in memory: the store compares the agent's echoes with them and names roots by them.
import type { MessageEntry } from './model';

/** Where a page of text went: enough to read it back, and its size as the user is told it. */
export interface VaultRef {
  readonly offset: number;
  readonly bytes: number;
}

/** Keeps text out of memory. `put` never throws and never loses text: a vault that cannot write keeps it. */
export interface TextVault {
  put(text: string): VaultRef;
  read(ref: VaultRef): Promise<string>;
}

/** One page of a message's earlier text: where it starts in the message (characters), and where it went. */
interface Page {
  readonly start: number;
  readonly chars: number;
  readonly ref: VaultRef;
}

/** What the chat is given for one request: the page that ends where its text starts. */
export interface EarlierPage {
  /** Where `text` starts in the message; 0 when nothing earlier is left on disk. */
  readonly start: number;
  readonly text: string;
  /** UTF-8 bytes still on disk before `start`. */
  readonly bytesBefore: number;
}

/** Characters a spilled message keeps in memory, so the chat shows its last words at once. */
export const KEPT_TAIL_CHARS = 2_000;
/** The largest page: what one scroll past a message's start reads back. */
export const PAGE_CHARS = 256 * 1024;

export class TextSpill {
  /** Agent and thought messages with text in memory, oldest first (insertion-ordered: add and delete are O(1)). */
  private readonly held = new Set<MessageEntry>();
  private readonly pages = new WeakMap<MessageEntry, Page[]>();

  constructor(private readonly vault: TextVault) {}

  /** A message's text grew: it may give its head to the vault later. */
  noteGrowth(entry: MessageEntry): void {
    if (entry.role !== 'user') this.held.add(entry);
  }

  /** The message's text was replaced (a v2 upsert) or it left the store: its pages are no longer its text. */
  forget(entry: MessageEntry): void {
    this.held.delete(entry);
    this.pages.delete(entry);
    delete entry.earlier;
  }

  /**
   * Moves the heads of the oldest long messages to the vault until `done()`; `moved` is told the characters
   * each one gave. A message visited and left short is taken off the list until its text grows again.
   */
  spillOldest(done: () => boolean, moved: (chars: number) => void): void {
    for (const entry of this.held) {
      if (done()) return;
      this.held.delete(entry);
      if (entry.text.length < 2 * KEPT_TAIL_CHARS) continue;
      moved(this.spill(entry));
    }
  }

  /** The page of earlier text that ends at `end` (the `earlier.chars` the chat holds); undefined when none does. */
  async page(entry: MessageEntry, end: number): Promise<EarlierPage | undefined> {
    const pages = this.pages.get(entry) ?? [];
    const at = pages.findIndex((page) => page.start + page.chars === end);
    if (at < 0) return undefined;
    const page = pages[at]!;
    const text = await this.vault.read(page.ref);
    let bytesBefore = 0;
    for (let i = 0; i < at; i++) bytesBefore += pages[i]!.ref.bytes;
    return { start: page.start, text, bytesBefore };
  }

  /** The message's whole text: its pages read back in order, then what memory holds. */
  async wholeText(entry: MessageEntry): Promise<string> {
    const pages = this.pages.get(entry) ?? [];
    const parts = await Promise.all(pages.map((page) => this.vault.read(page.ref)));
    return parts.join('') + entry.text;
  }

  /** Gives all but the last KEPT_TAIL_CHARS of the message's text to the vault; returns the characters moved. */
  private spill(entry: MessageEntry): number {
    const text = entry.text;
    const cut = cutBefore(text, text.length - KEPT_TAIL_CHARS);
    if (cut <= 0) return 0;
    let pages = this.pages.get(entry);
    if (!pages) this.pages.set(entry, (pages = []));
    let start = entry.earlier?.chars ?? 0;
    let bytes = entry.earlier?.bytes ?? 0;
    for (let from = 0; from < cut; ) {
      const to = cut - from <= PAGE_CHARS ? cut : cutBefore(text, from + PAGE_CHARS, from);
      const ref = this.vault.put(text.slice(from, to));
      pages.push({ start, chars: to - from, ref });
      start += to - from;
      bytes += ref.bytes;
      from = to;
    }
    entry.earlier = { chars: start, bytes };
    // A slice would keep the whole text alive (V8 slices point into their parent): the tail is copied.
    entry.text = copyOf(text.slice(cut));
    return cut;
  }
}

/**
 * Where to cut `text` at or before `at`: just after a line break less than KEPT_TAIL_CHARS before it when there
 * is one (so what follows starts a line), never between the two halves of a surrogate pair, never at or before `from`.
 */
function cutBefore(text: string, at: number, from = 0): number {
  if (at <= from) return from;
  const lineBreak = text.lastIndexOf('\n', at - 1);
  let cut = lineBreak >= Math.max(from + 1, at - KEPT_TAIL_CHARS) ? lineBreak + 1 : at;
  const before = text.charCodeAt(cut - 1);
  if (cut < text.length && before >= 0xd800 && before <= 0xdbff) cut--;
  return cut > from ? cut : at;
}

/** A string that shares no memory with `text`. */
function copyOf(text: string): string {
  return Buffer.from(text, 'utf16le').toString('utf16le');
}
