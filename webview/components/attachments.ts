// Non-text content blocks (images, links, embedded resources), rendered as text and safe data URIs only; a file
// link or resource shows its path as the chat shows paths (subchats-path), never as a file:// link.
import { html, type nothing, type TemplateResult } from 'lit';
import type { ContentBlock } from '../../src/protocol/transcript';
import { requestHost } from '../events';
import { isSafeLink } from '../lib/markdown';
import { isLocalFile, t } from '../../src/presentation';
import { codicon } from './base';
import './subchats-path';

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const BASE64 = /^[A-Za-z0-9+/=\s]+$/;

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Opens a web or mail link through the host (which confirms first); nothing else. */
function openLink(from: EventTarget, uri: string): void {
  if (isSafeLink(uri)) requestHost(from, { type: 'openLink', url: uri });
}

export function renderAttachment(block: ContentBlock): TemplateResult | typeof nothing {
  switch (block.type) {
    case 'image': {
      const mime = str(block.mimeType) ?? '';
      const data = str(block.data) ?? '';
      if (IMAGE_TYPES.has(mime) && BASE64.test(data)) {
        return html`<img class="sc-image" alt=${t('Image attachment')} src=${`data:${mime};base64,${data}`} />`;
      }
      return html`<div class="sc-muted">${codicon('file-media')} ${t('Image ({0})', mime || t('unknown type'))}</div>`;
    }
    case 'resource_link': {
      const uri = str(block.uri) ?? '';
      // A local file shows as the chat shows paths (its name is the file's, the path says where it is).
      if (isLocalFile(uri)) return html`<div>${codicon('file')} <subchats-path .path=${uri}></subchats-path></div>`;
      const name = str(block.title) ?? str(block.name) ?? uri;
      return html`<div>
        ${codicon('link')}
        <button type="button" class="sc-link" title=${uri} @click=${(e: Event) => openLink(e.currentTarget as Element, uri)}>
          ${name}
        </button>
      </div>`;
    }
    case 'resource': {
      const resource = (block.resource ?? {}) as Record<string, unknown>;
      const uri = str(resource.uri) ?? '';
      const text = str(resource.text);
      if (isLocalFile(uri)) {
        // The path opens the file; the text that went with it (or a note that it was binary) is on demand.
        return html`<div class="sc-resource">
          <div>${codicon('file')} <subchats-path .path=${uri}></subchats-path></div>
          ${text !== undefined ? html`<details><summary>${t('Text sent with it')}</summary><pre>${text}</pre></details>` : html`<div class="sc-muted">${t('Binary content')}</div>`}
        </div>`;
      }
      return html`<details>
        <summary>${codicon('file')} ${uri || t('Embedded resource')}</summary>
        ${text !== undefined ? html`<pre>${text}</pre>` : html`<div class="sc-muted">${t('Binary content')}</div>`}
      </details>`;
    }
    case 'audio':
      return html`<div class="sc-muted">${codicon('unmute')} ${t('Audio ({0})', str(block.mimeType) ?? t('unknown type'))}</div>`;
    case 'text':
      return html`<pre>${str(block.text) ?? ''}</pre>`;
    default:
      return html`<div class="sc-muted">${codicon('question')} ${t('{0} content', block.type)}</div>`;
  }
}
