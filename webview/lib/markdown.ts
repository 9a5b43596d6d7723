// Agent markdown -> sanitized DOM. Raw HTML in agent text is shown as text (it is never parsed: even inert
// parsing makes Chromium report CSP violations for handlers and styles). The markdown output then goes
// through DOMPurify with a strict allowlist: no scripts, styles, forms, frames, SVG or MathML; links only
// http(s)/mailto (opened via the host after the user confirms); images only inline raster data URIs.
import DOMPurify, { type Config } from 'dompurify';
import { Marked } from 'marked';

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
const SAFE_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[a-z0-9+/=\s]+$/i;
const LANGUAGE_CLASS = /^language-[\w-]+$/;

const purify = DOMPurify(window);
purify.addHook('afterSanitizeAttributes', (node) => {
  if (!(node instanceof Element)) return;
  const cls = node.getAttribute('class');
  if (cls !== null && !LANGUAGE_CLASS.test(cls)) node.removeAttribute('class');
  if (node.tagName === 'A') {
    const href = node.getAttribute('href') ?? '';
    if (!SAFE_LINK.test(href.trim())) node.removeAttribute('href');
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

export function renderMarkdown(text: string): DocumentFragment {
  const html = marked.parse(text) as string;
  return purify.sanitize(html, PURIFY_CONFIG);
}

export function isSafeLink(url: string): boolean {
  return SAFE_LINK.test(url.trim());
}
