// Sanitized markdown. A plain custom element (not Lit) because it owns its children: the sanitized fragment
// is inserted as DOM, and code blocks get a toolbar (code-block-actions). Links, copies and code actions go to
// the host as requests; a fenced block's text is taken from the message (a long block is shown in pieces).
// Incremental: text that extends the previous text keeps the DOM of finished blocks and re-renders only the
// open last one; rendering stops after a frame's budget and goes on in the next frame (a long message
// arriving at once never blocks the renderer for more than about a frame).
import { codeBlockFile } from '../../src/presentation';
import { requestHost } from '../events';
import { highlightWhenShown } from '../lib/codeHighlighting';
import { isSafeLink, renderBlock } from '../lib/markdown';
import { MarkdownBlockSplitter, type CodeBlock, type MarkdownBlock } from '../lib/markdownBlocks';
import { CODE_BLOCK_ATTRIBUTE, clickedCodeAction, offerApply, wrapCodeBlock } from './code-block-actions';
import type { TextGrowth } from '../state/textGrowth';
import { linkFileReferences } from './subchats-path';

/** Rendering time per frame before the rest waits for the next frame. */
const FRAME_BUDGET_MS = 8;
/**
 * Finished blocks go into groups of this many, each `content-visibility: auto`: the browser skips laying out
 * groups off screen, so a change at the end of a long message does not lay out all of it again.
 */
const GROUP_BLOCKS = 16;

export class SubchatsMarkdown extends HTMLElement {
  private currentText: string | undefined;
  private splitter = new MarkdownBlockSplitter();
  /** Finished blocks not rendered yet (over the frame budget), from `queueStart` on. */
  private queue: MarkdownBlock[] = [];
  private queueStart = 0;
  /** The DOM of the open last block, replaced on every update. */
  private openNodes: ChildNode[] = [];
  /** What the open nodes show, so a block that finishes unchanged keeps them instead of rendering again. */
  private openBlock: MarkdownBlock | undefined;
  private frame: number | undefined;
  private group: HTMLElement | undefined;
  private groupBlocks = 0;
  /** Where each fenced block of the message is, whether it is whole, and the file it names. */
  private codeBlocks = new Map<number, { bodyStart: number; end: number; closed: boolean; file?: string }>();

  constructor() {
    super();
    this.addEventListener('click', (event) => this.onClick(event));
  }

  /**
   * How the next `text` grew from the current one, when the chat store knows (set it before `text`): then only
   * the suffix is read, never the whole message.
   */
  growth: TextGrowth | undefined;

  get text(): string {
    return this.currentText ?? '';
  }

  set text(value: string) {
    if (value === this.currentText) return;
    const growth = this.growth;
    this.growth = undefined;
    const suffix = growth && growth.to === value && growth.from === this.currentText ? growth.suffix : undefined;
    const extendsPrevious = suffix !== undefined || (this.currentText !== undefined && extendsText(this.currentText, value));
    this.currentText = value;
    if (!extendsPrevious) {
      this.splitter = new MarkdownBlockSplitter();
      this.queue = [];
      this.queueStart = 0;
      this.openNodes = [];
      this.openBlock = undefined;
      this.group = undefined;
      this.codeBlocks.clear();
      this.replaceChildren();
    }
    this.queue.push(...(suffix !== undefined ? this.splitter.append(suffix) : this.splitter.push(value)));
    this.render();
  }

  disconnectedCallback(): void {
    if (this.frame !== undefined) cancelAnimationFrame(this.frame);
    this.frame = undefined;
  }

  connectedCallback(): void {
    if (this.queueStart < this.queue.length && this.frame === undefined) this.render();
  }

  /** Renders queued blocks until the budget runs out (the rest next frame), then the open block. */
  private render(): void {
    if (this.frame !== undefined) cancelAnimationFrame(this.frame);
    this.frame = undefined;
    const first = this.queue[this.queueStart];
    if (first && this.openBlock && sameBlock(first, this.openBlock)) {
      // The open block finished as it is shown: its nodes move into the group instead of rendering again.
      this.queueStart++;
      this.finishedGroup().append(...this.openNodes);
      for (const node of this.openNodes) if (node instanceof Element) highlightWhenShown(node);
    } else {
      for (const node of this.openNodes) node.remove();
    }
    this.openNodes = [];
    this.openBlock = undefined;
    const deadline = performance.now() + FRAME_BUDGET_MS;
    while (this.queueStart < this.queue.length) {
      if (performance.now() > deadline) {
        this.frame = requestAnimationFrame(() => this.render());
        return;
      }
      const finished = this.renderFragment(this.queue[this.queueStart++]!);
      // Only finished blocks are highlighted: the open one changes with every chunk.
      highlightWhenShown(finished);
      this.finishedGroup().append(finished);
    }
    this.queue = [];
    this.queueStart = 0;
    this.openBlock = this.splitter.open();
    const fragment = this.renderFragment(this.openBlock);
    this.openNodes = [...fragment.childNodes];
    this.append(fragment);
  }

  /** The group the next finished block goes into (a new one after GROUP_BLOCKS blocks). */
  private finishedGroup(): HTMLElement {
    if (!this.group || this.groupBlocks >= GROUP_BLOCKS) {
      this.group = document.createElement('div');
      this.group.className = 'sc-md-group';
      this.groupBlocks = 0;
      // Finished blocks come before the open block's nodes, which are appended after every render.
      this.insertBefore(this.group, this.openNodes[0] ?? null);
    }
    this.groupBlocks++;
    return this.group;
  }

  private renderFragment(block: MarkdownBlock): DocumentFragment {
    const fragment = renderBlock(block);
    if (block.kind !== 'code') {
      for (const pre of fragment.querySelectorAll('pre')) wrapCodeBlock(pre, undefined, true);
      linkFileReferences(fragment);
      return fragment;
    }
    const startsBlock = block.end - block.code.length === block.bodyStart;
    const pre = fragment.querySelector('pre');
    if (pre) wrapCodeBlock(pre, block.ordinal, startsBlock);
    const file = this.noteCodeBlock(block, startsBlock);
    if (file && block.closed) offerApply(startsBlock ? fragment : this, block.ordinal, file);
    return fragment;
  }

  /** Records where a fenced block is; the file it names (read from its first piece). */
  private noteCodeBlock(block: CodeBlock, startsBlock: boolean): string | undefined {
    const known = this.codeBlocks.get(block.ordinal);
    const file = startsBlock ? codeBlockFile(block.info, block.code)?.path : known?.file;
    this.codeBlocks.set(block.ordinal, { bodyStart: block.bodyStart, end: block.end, closed: block.closed, ...(file !== undefined ? { file } : {}) });
    return file;
  }

  /** A fenced block's whole text (all its pieces), or a block's own text when it is not a fenced one. */
  private codeOf(wrapper: Element): { readonly code: string; readonly file?: string; readonly closed: boolean } {
    const ordinal = wrapper.getAttribute(CODE_BLOCK_ATTRIBUTE);
    const known = ordinal !== null ? this.codeBlocks.get(Number(ordinal)) : undefined;
    if (!known) return { code: wrapper.querySelector('pre')?.textContent ?? '', closed: true };
    const text = this.currentText ?? '';
    const whole = text.slice(known.bodyStart, Math.min(known.end, text.length));
    const named = known.file !== undefined ? codeBlockFile('', whole) : undefined;
    // A first line that only named the file is not part of the file.
    const code = named !== undefined && named.path === known.file ? named.code : whole;
    return { code, closed: known.closed, ...(known.file !== undefined ? { file: known.file } : {}) };
  }

  private onClick(event: MouseEvent): void {
    const target = event.target instanceof Element ? event.target : null;
    const clicked = target && clickedCodeAction(target, this);
    if (clicked) {
      event.preventDefault();
      const { code, file, closed } = this.codeOf(clicked.block);
      if (clicked.action === 'copy') requestHost(this, { type: 'copy', text: code });
      else if (clicked.action !== 'apply') requestHost(this, { type: 'codeBlock', action: clicked.action, code });
      // Apply is offered only on a whole block that names its file.
      else if (file !== undefined && closed) requestHost(this, { type: 'codeBlock', action: 'apply', code, path: file });
      return;
    }
    const link = target?.closest('a');
    if (link && this.contains(link)) {
      event.preventDefault();
      const href = link.getAttribute('href');
      if (href && isSafeLink(href)) requestHost(this, { type: 'openLink', url: href });
    }
  }
}

/**
 * Whether `next` is `previous` with text added, compared at the start and at the seam: the store only appends
 * (a replaced text comes as a whole entry), and comparing whole prefixes would cost the message's size per chunk.
 */
function extendsText(previous: string, next: string): boolean {
  if (next.length < previous.length) return false;
  const n = Math.min(256, previous.length);
  return next.startsWith(previous.slice(0, n)) && next.slice(previous.length - n, previous.length) === previous.slice(previous.length - n);
}

function sameBlock(a: MarkdownBlock, b: MarkdownBlock): boolean {
  // A block that closes is drawn again once, to offer what only a whole block offers (Apply).
  if (a.kind === 'code') return b.kind === 'code' && a.code === b.code && a.info === b.info && a.closed === b.closed;
  return b.kind === a.kind && a.raw === b.raw;
}

customElements.define('subchats-markdown', SubchatsMarkdown);

declare global {
  interface HTMLElementTagNameMap {
    'subchats-markdown': SubchatsMarkdown;
  }
}
