// Agent markdown -> sanitized DOM. Raw HTML in agent text is shown as text (it is never parsed: even inert
// parsing makes Chromium report CSP violations for handlers and styles). The markdown output then goes
// through DOMPurify with a strict allowlist: no scripts, styles, forms, frames, SVG or MathML; links only
// http(s)/mailto (opened via the host after the user confirms); images only inline raster data URIs.
import DOMPurify, { type Config } from 'dompurify';
import { Marked } from 'marked';
import type { MarkdownBlock } from './markdownBlocks';

const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    html: ({ text }) => escapeHtml(text),
  },
});

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const SAFE_LINK = /^(https?:|mailto:)/i;
/** Where a link's href that is not a web or mail link is kept, out of the href. */
export const UNSAFE_HREF_ATTRIBUTE = 'data-sc-href';
const SAFE_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[a-z0-9+/=\s]+$/i;
const LANGUAGE_CLASS = /^language-[\w-]+$/;

const purify = DOMPurify(window);
/** Each link's href as written, read before DOMPurify drops a scheme it does not allow (`file:`). */
const writtenHrefs = new WeakMap<Element, string>();
purify.addHook('beforeSanitizeAttributes', (node) => {
  if (node instanceof Element && node.tagName === 'A') writtenHrefs.set(node, node.getAttribute('href') ?? '');
});
purify.addHook('afterSanitizeAttributes', (node) => {
  if (!(node instanceof Element)) return;
  const cls = node.getAttribute('class');
  if (cls !== null && !LANGUAGE_CLASS.test(cls)) node.removeAttribute('class');
  if (node.tagName === 'A') {
    const href = writtenHrefs.get(node) ?? '';
    if (!SAFE_LINK.test(href.trim())) {
      node.removeAttribute('href');
      // Kept aside (agent text cannot set data attributes: they are not allowed) for the chat to decide whether
      // it names a local file, which then opens through the host (subchats-path), never as an href.
      if (href !== '') node.setAttribute(UNSAFE_HREF_ATTRIBUTE, href);
    }
    node.removeAttribute('target');
  }
  if (node.tagName === 'IMG') {
    const src = node.getAttribute('src') ?? '';
    if (!SAFE_IMAGE.test(src)) node.replaceWith(document.createTextNode(node.getAttribute('alt') ?? ''));
  }
});

const PURIFY_CONFIG: Config & { RETURN_DOM_FRAGMENT: true } = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: [
    'style', 'form', 'input', 'button', 'textarea', 'select', 'option', 'iframe', 'frame', 'object', 'embed',
    'link', 'meta', 'base', 'svg', 'math', 'template', 'video', 'audio', 'source', 'picture', 'dialog',
  ],
  FORBID_ATTR: ['style', 'id', 'name', 'srcset', 'formaction', 'action', 'background', 'ping'],
  ALLOW_DATA_ATTR: false,
  SANITIZE_NAMED_PROPS: true,
  RETURN_DOM_FRAGMENT: true,
};

function renderMarkdown(text: string): DocumentFragment {
  const html = marked.parse(text) as string;
  return purify.sanitize(html, PURIFY_CONFIG);
}

/**
 * Deeper nesting than this (block quotes, list levels, indentation) is shown as text: the parser recurses per
 * level (2,500 `>` overflowed its stack) and deep lists cost it seconds per message.
 */
const MAX_NESTING = 24;

/** The deepest container nesting of any line: `>` and list markers at its start, plus indentation (2 columns a level). */
function nestingDepth(raw: string): number {
  let deepest = 0;
  for (const match of raw.matchAll(/^[ \t>*+\-\d.)]+/gm)) {
    const prefix = match[0];
    let depth = 0;
    let indent = 0;
    for (const c of prefix) {
      if (c === '>') depth++;
      else if (c === ' ') indent++;
      else if (c === '\t') indent += 4;
    }
    depth += (prefix.match(/(^|[ \t>])([-*+]|\d{1,9}[.)])(?=[ \t]|$)/g)?.length ?? 0) + Math.floor(indent / 2);
    if (depth > deepest) deepest = depth;
  }
  return deepest;
}

/** One block as sanitized DOM: code and plain text without the parser, markdown within the caps, else text. */
export function renderBlock(block: MarkdownBlock): DocumentFragment {
  if (block.kind === 'code') return codeFragment(block.code, block.lang);
  if (block.kind === 'plain' || nestingDepth(block.raw) > MAX_NESTING) return plainFragment(block.raw);
  try {
    if (block.tableHead === undefined) return renderMarkdown(block.raw);
    // The piece of a long table after a cut: parsed under its header rows so it stays a table; the header shows once.
    const fragment = renderMarkdown(block.tableHead + block.raw);
    fragment.querySelector('table')?.classList.add('sc-table-continued');
    return fragment;
  } catch {
    // Any parser or sanitizer failure on agent text: show it as text rather than lose it.
    return plainFragment(block.raw);
  }
}

function codeFragment(code: string, lang: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const pre = document.createElement('pre');
  const element = document.createElement('code');
  if (/^[\w-]+$/.test(lang)) element.className = `language-${lang}`;
  // As marked renders code: the body ends with a line break.
  element.textContent = code === '' || code.endsWith('\n') ? code : `${code}\n`;
  pre.append(element);
  fragment.append(pre);
  return fragment;
}

function plainFragment(text: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const paragraph = document.createElement('p');
  paragraph.className = 'sc-plain-text';
  paragraph.textContent = text.replace(/^\n+|\n+$/g, '');
  fragment.append(paragraph);
  return fragment;
}

export function isSafeLink(url: string): boolean {
  return SAFE_LINK.test(url.trim());
}
