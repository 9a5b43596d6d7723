// Splits streamed markdown into top-level blocks that later text cannot change, so a message that grows
// re-parses only its open last block. Boundaries: a blank line followed by an unindented line, and fenced
// code blocks (which are rendered without the markdown parser). No block grows past MAX_BLOCK_CHARS: a longer
// one is cut at a line end (a long line at the cap), which bounds the cost of parsing any block. Scanning is
// incremental: each append reads only the lines added since the last one, and the splitter keeps only the
// text from the open block on. It never reads the whole message: V8 builds `text += chunk` as a rope, and any
// read of the whole (slice, indexOf) flattens it, copying the message once per chunk.

/** A code block, or one line, beyond this many characters is cut into several blocks. */
export const MAX_BLOCK_CHARS = 16 * 1024;
/**
 * Markdown of several lines beyond this is cut at a line end. The open block is parsed and drawn again with every
 * chunk, so this bounds a chunk's cost in a long list, table or run of lines (16 KB cost 1.7x the 1 KB case).
 */
export const MAX_MARKDOWN_BLOCK_CHARS = 4 * 1024;

export type MarkdownBlock =
  /** `tableHead`: the header and delimiter rows of the table this block continues (drawn hidden, so it is a table). */
  | { readonly kind: 'markdown'; readonly raw: string; readonly tableHead?: string }
  /** A fenced code block, or a piece of a long one; `code` is its body without the fence lines. */
  | CodeBlock
  /** Text shown as is (a single line longer than the cap). */
  | { readonly kind: 'plain'; readonly raw: string };

/** A fenced code block, or a piece of a long one. */
export interface CodeBlock {
  readonly kind: 'code';
  /** This piece's body, without the fence lines. */
  readonly code: string;
  readonly lang: string;
  /** The whole info string after the opening fence (a language, maybe a file name). */
  readonly info: string;
  /** Which code block of the message this is (its pieces share it), counted from 0. */
  readonly ordinal: number;
  /** Where the whole block's body starts and this piece's body ends, in the whole text. */
  readonly bodyStart: number;
  readonly end: number;
  /** The closing fence came: the block is whole. */
  readonly closed: boolean;
}

interface Fence {
  readonly char: string;
  readonly length: number;
  readonly lang: string;
  readonly info: string;
  readonly ordinal: number;
  /** Where the whole block's body starts (`bodyStart` moves on as long blocks are cut). */
  readonly blockBodyStart: number;
  /** Where the body starts (after the opening line, or where a cut piece continues). */
  readonly bodyStart: number;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})([^\n]*)$/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const TABLE_HEAD_SEARCH_LINES = 8;
const TABLE_DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

/** A line of paragraph text starts with neither a space nor what starts a list item, quote, table row or heading. */
const PARAGRAPH_START = /^[^\s]/;
const NOT_PARAGRAPH_LINE = /^([-*+>|#=]|\d{1,9}[.)](\s|$)|[`~]{3})/;
/**
 * The end of a sentence: its mark and the spaces after it, then the next sentence's first character, which must
 * not start a list item, quote, heading, table row or fence where a block starts (no digit either: "1. ").
 */
const SENTENCE_END = /[.!?]["')\]]?[ \t]+(?=[^\s\-*+>#|=`~\d])/g;
const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * Where the next sentence starts after the last sentence end in `line` that leaves no code span, emphasis or link
 * open before it; undefined when none does. One pass over the line.
 */
function lastBalancedSentenceEnd(line: string): number | undefined {
  let found: number | undefined;
  let scannedTo = 0;
  let ticks = 0;
  let stars = 0;
  let underscores = 0;
  let brackets = 0;
  let parens = 0;
  for (const match of line.matchAll(SENTENCE_END)) {
    const end = match.index + match[0].length;
    for (; scannedTo < end; scannedTo++) {
      const char = line[scannedTo];
      if (char === '`') ticks++;
      else if (ticks % 2 === 1) continue;
      else if (char === '*') stars++;
      // An underscore inside a word (snake_case) emphasises nothing.
      else if (char === '_' && !(WORD_CHAR.test(line[scannedTo - 1] ?? '') && WORD_CHAR.test(line[scannedTo + 1] ?? ''))) underscores++;
      else if (char === '[') brackets++;
      else if (char === ']') brackets--;
      else if (char === '(') parens++;
      else if (char === ')') parens--;
    }
    if (ticks % 2 === 0 && stars % 2 === 0 && underscores % 2 === 0 && brackets === 0 && parens === 0) found = end;
  }
  return found;
}

export class MarkdownBlockSplitter {
  /** The text from `base` on (positions below are absolute, in the whole message). */
  private tail = '';
  private base = 0;
  /** Start of the first line not scanned yet. */
  private scanned = 0;
  /** Start of the open block. */
  private blockStart = 0;
  private fence: Fence | undefined;
  private previousBlank = false;
  private fences = 0;
  /** The header rows of the table the open block continues (it was cut inside a table). */
  private tableHead: string | undefined;

  /** How much text the splitter has been given. */
  get length(): number {
    return this.base + this.tail.length;
  }

  /** How much of it is still held (the open block and what follows it). */
  get retained(): number {
    return this.tail.length;
  }

  /** Takes the whole text so far (it must extend the previous one) and returns the blocks finished since. */
  push(text: string): MarkdownBlock[] {
    return this.append(text.slice(this.length));
  }

  /** Takes the text added at the end and returns the blocks finished since. */
  append(suffix: string): MarkdownBlock[] {
    this.tail += suffix;
    const finished: MarkdownBlock[] = [];
    for (let newline = this.indexOfNewline(this.scanned); newline !== -1; newline = this.indexOfNewline(this.scanned)) {
      const lineStart = this.scanned;
      this.scanned = newline + 1;
      this.scanLine(this.slice(lineStart, newline), lineStart, finished);
    }
    // The unfinished last line already starts a new block when it follows a blank line unindented.
    if (!this.fence && this.previousBlank && /^[^ \t\n]/.test(this.slice(this.scanned, this.scanned + 1))) this.finishBefore(this.scanned, finished);
    if (!this.fence) this.cutLongParagraph(finished);
    // A line longer than the cap has no line end to cut at: it is cut at the cap and shown as text.
    while (this.length - this.scanned > MAX_BLOCK_CHARS) {
      const end = this.scanned + MAX_BLOCK_CHARS;
      if (this.fence) {
        finished.push(this.codePiece(this.fence, end, false));
        this.fence = { ...this.fence, bodyStart: end };
      } else {
        this.finishBefore(this.scanned, finished);
        finished.push({ kind: 'plain', raw: this.slice(this.scanned, end) });
      }
      this.scanned = this.blockStart = end;
    }
    this.dropFinished();
    return finished;
  }

  /** The block still open at the end of the text (it may change as text is added). */
  open(): MarkdownBlock {
    if (this.fence) return this.codePiece(this.fence, this.length, false);
    return this.markdownBlock(this.slice(this.blockStart, this.length));
  }

  private codePiece(fence: Fence, end: number, closed: boolean): CodeBlock {
    const { lang, info, ordinal, blockBodyStart } = fence;
    return { kind: 'code', code: this.slice(fence.bodyStart, end), lang, info, ordinal, bodyStart: blockBodyStart, end, closed };
  }

  private slice(start: number, end: number): string {
    return this.tail.slice(start - this.base, end - this.base);
  }

  private indexOfNewline(from: number): number {
    const at = this.tail.indexOf('\n', from - this.base);
    return at === -1 ? -1 : at + this.base;
  }

  /** Forgets text before the open block (a fence's body is part of it). */
  private dropFinished(): void {
    const keepFrom = Math.min(this.blockStart, this.fence?.bodyStart ?? this.blockStart);
    if (keepFrom - this.base < 4096) return;
    this.tail = this.tail.slice(keepFrom - this.base);
    this.base = keepFrom;
  }

  private scanLine(line: string, lineStart: number, finished: MarkdownBlock[]): void {
    const fence = this.fence;
    if (fence) {
      const close = FENCE_CLOSE.exec(line);
      if (close?.[1] && close[1][0] === fence.char && close[1].length >= fence.length) {
        finished.push(this.codePiece(fence, Math.max(fence.bodyStart, lineStart - 1), true));
        this.fence = undefined;
        this.blockStart = this.scanned;
        this.previousBlank = false;
      } else if (this.scanned - fence.bodyStart > MAX_BLOCK_CHARS) {
        finished.push(this.codePiece(fence, this.scanned - 1, false));
        this.fence = { ...fence, bodyStart: this.scanned };
        this.blockStart = this.scanned;
      }
      return;
    }
    const open = FENCE_OPEN.exec(line);
    if (open?.[1] && !(open[1][0] === '`' && open[2]?.includes('`'))) {
      this.finishBefore(lineStart, finished);
      const info = open[2]?.trim() ?? '';
      const lang = /^[\w-]+/.exec(info)?.[0] ?? '';
      this.fence = { char: open[1][0]!, length: open[1].length, lang, info, ordinal: this.fences++, blockBodyStart: this.scanned, bodyStart: this.scanned };
      this.blockStart = lineStart;
      this.previousBlank = false;
      return;
    }
    const blank = line.trim() === '';
    const unindented = !blank && !/^[ \t]/.test(line);
    // An indented line after a blank one may continue a list item: not a boundary.
    if (unindented && this.previousBlank) this.finishBefore(lineStart, finished);
    // A long block is cut before a line that starts at the margin (a list item, a table row, a line of text), where
    // the next block reads the same on its own; at any line end only once it reaches the hard cap.
    else if (unindented && lineStart - this.blockStart > MAX_MARKDOWN_BLOCK_CHARS) this.cutBefore(lineStart, finished);
    this.previousBlank = blank;
    if (this.scanned - this.blockStart > MAX_BLOCK_CHARS) this.cutBefore(this.scanned, finished);
  }

  /**
   * A paragraph written as one line (an agent that never breaks its lines) has no line end to cut at: once the
   * unfinished line passes the markdown cap it is cut after its last sentence that closes every code span,
   * emphasis and link it opened, so each chunk parses a bounded block and the rest reads the same on its own (a
   * new paragraph), formatting kept. Lines that are not plain text (a list item, quote, table row, heading,
   * indented code) go on to the hard cap as before.
   */
  private cutLongParagraph(finished: MarkdownBlock[]): void {
    if (this.length - this.scanned <= MAX_MARKDOWN_BLOCK_CHARS || !PARAGRAPH_START.test(this.slice(this.scanned, this.scanned + 1))) return;
    if (NOT_PARAGRAPH_LINE.test(this.slice(this.scanned, this.scanned + 8))) return;
    const cut = lastBalancedSentenceEnd(this.slice(this.scanned, this.length));
    if (cut === undefined) return;
    // Lines before it in the block end there (a paragraph of several lines, then the long one).
    this.finishBefore(this.scanned, finished);
    this.finishBefore(this.scanned + cut, finished);
    this.scanned = this.blockStart = this.scanned + cut;
    this.previousBlank = false;
  }

  /** Cuts a long markdown block at a line end; a table goes on as a table (its header rows carried along). */
  private cutBefore(end: number, finished: MarkdownBlock[]): void {
    const head = this.tableHead ?? this.tableHeadAt(this.blockStart);
    this.finishBefore(end, finished);
    this.tableHead = head;
  }

  /**
   * The header and delimiter rows (`| a | b |` then `|---|---|`) of a table among the first lines of the block at
   * `start` (a heading or a line of text may come first), when the block ends in it.
   */
  private tableHeadAt(start: number): string | undefined {
    let lineStart = start;
    let previous: { start: number; text: string } | undefined;
    for (let i = 0; i < TABLE_HEAD_SEARCH_LINES; i++) {
      const end = this.indexOfNewline(lineStart);
      if (end === -1) return undefined;
      const text = this.slice(lineStart, end);
      if (previous?.text.includes('|') && TABLE_DELIMITER.test(text)) return this.slice(previous.start, end + 1);
      previous = { start: lineStart, text };
      lineStart = end + 1;
    }
    return undefined;
  }

  private markdownBlock(raw: string): MarkdownBlock {
    return this.tableHead !== undefined ? { kind: 'markdown', raw, tableHead: this.tableHead } : { kind: 'markdown', raw };
  }

  /** Closes the open markdown block at `end` (nothing when it is empty or only whitespace). */
  private finishBefore(end: number, finished: MarkdownBlock[]): void {
    if (end <= this.blockStart) return;
    const raw = this.slice(this.blockStart, end);
    this.blockStart = end;
    if (raw.trim() !== '') finished.push(this.markdownBlock(raw));
    this.tableHead = undefined;
  }
}
