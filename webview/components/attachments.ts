// Non-text content blocks (images, links, embedded resources), rendered as text and safe data URIs only.
import { html, type nothing, type TemplateResult } from 'lit';
import type { ContentBlock } from '../../src/protocol/transcript';
import { requestHost } from '../events';
import { isSafeLink } from '../lib/markdown';
import { codicon } from './base';

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const BASE64 = /^[A-Za-z0-9+/=\s]+$/;

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Opens a URI: local files in the editor, web links via the host (which confirms first); nothing else. */
function openUri(from: EventTarget, uri: string, line?: number): void {
  if (uri.startsWith('file://')) {
    let path: string;
    try {
      path = decodeURIComponent(uri.slice('file://'.length));
    } catch {
      return; // a malformed escape in agent text: nothing sensible to open
    }
    requestHost(from, line === undefined ? { type: 'openFile', path } : { type: 'openFile', path, line });
  } else if (uri.startsWith('/')) {
    requestHost(from, line === undefined ? { type: 'openFile', path: uri } : { type: 'openFile', path: uri, line });
  } else if (isSafeLink(uri)) {
    requestHost(from, { type: 'openLink', url: uri });
  }
}

export function renderAttachment(block: ContentBlock): TemplateResult | typeof nothing {
  switch (block.type) {
    case 'image': {
      const mime = str(block.mimeType) ?? '';
      const data = str(block.data) ?? '';
      if (IMAGE_TYPES.has(mime) && BASE64.test(data)) {
        return html`<img class="sc-image" alt="Image attachment" src=${`data:${mime};base64,${data}`} />`;
      }
      return html`<div class="sc-muted">${codicon('file-media')} Image (${mime || 'unknown type'})</div>`;
    }
    case 'resource_link': {
      const uri = str(block.uri) ?? '';
      const name = str(block.title) ?? str(block.name) ?? uri;
      return html`<div>
        ${codicon('link')}
        <button type="button" class="sc-link" title=${uri} @click=${(e: Event) => openUri(e.currentTarget as Element, uri)}>
          ${name}
        </button>
      </div>`;
    }
    case 'resource': {
      const resource = (block.resource ?? {}) as Record<string, unknown>;
      const uri = str(resource.uri) ?? '';
      const text = str(resource.text);
      return html`<details>
        <summary>${codicon('file')} ${uri || 'Embedded resource'}</summary>
        ${text !== undefined ? html`<pre>${text}</pre>` : html`<div class="sc-muted">Binary content</div>`}
      </details>`;
    }
    case 'audio':
      return html`<div class="sc-muted">${codicon('unmute')} Audio (${str(block.mimeType) ?? 'unknown type'})</div>`;
    case 'text':
      return html`<pre>${str(block.text) ?? ''}</pre>`;
    default:
      return html`<div class="sc-muted">${codicon('question')} ${block.type} content</div>`;
  }
}
