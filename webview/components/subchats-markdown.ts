// Sanitized markdown. A plain custom element (not Lit) because it owns its children: the sanitized fragment
// is inserted as DOM, and code blocks get a copy button. Links and copies go to the host as requests.
// Incremental: text that extends the previous text keeps the DOM of finished blocks and re-renders only the
// open last one; rendering stops after a frame's budget and goes on in the next frame (a long message
// arriving at once never blocks the renderer for more than about a frame).
import { requestHost } from '../events';
import { isSafeLink, renderBlock } from '../lib/markdown';
import { MarkdownBlockSplitter, type MarkdownBlock } from '../lib/markdownBlocks';
import type { TextGrowth } from '../state/textGrowth';

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
      this.finishedGroup().append(this.renderFragment(this.queue[this.queueStart++]!));
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
    for (const pre of fragment.querySelectorAll('pre')) addCopyButton(pre);
    return fragment;
  }

  private onClick(event: MouseEvent): void {
    const target = event.target instanceof Element ? event.target : null;
    const copy = target?.closest('button.sc-copy');
    if (copy && this.contains(copy)) {
      event.preventDefault();
      const code = copy.parentElement?.querySelector('pre')?.textContent ?? '';
      requestHost(this, { type: 'copy', text: code });
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
  if (a.kind === 'code') return b.kind === 'code' && a.code === b.code && a.lang === b.lang;
  return b.kind === a.kind && a.raw === b.raw;
}

function addCopyButton(pre: HTMLPreElement): void {
  const wrapper = document.createElement('div');
  wrapper.className = 'sc-code-block';
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'sc-copy sc-icon-button';
  button.title = 'Copy code';
  button.setAttribute('aria-label', 'Copy code');
  const icon = document.createElement('span');
  icon.className = 'codicon codicon-copy';
  icon.setAttribute('aria-hidden', 'true');
  button.append(icon);
  pre.replaceWith(wrapper);
  wrapper.append(button, pre);
}

customElements.define('subchats-markdown', SubchatsMarkdown);

declare global {
  interface HTMLElementTagNameMap {
    'subchats-markdown': SubchatsMarkdown;
  }
}
