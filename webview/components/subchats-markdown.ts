// Sanitized markdown. A plain custom element (not Lit) because it owns its children: the sanitized fragment
// is inserted as DOM, and code blocks get a copy button. Links and copies go to the host as requests.
import { requestHost } from '../events';
import { isSafeLink, renderMarkdown } from '../lib/markdown';

export class SubchatsMarkdown extends HTMLElement {
  private currentText: string | undefined;

  constructor() {
    super();
    this.addEventListener('click', (event) => this.onClick(event));
  }

  get text(): string {
    return this.currentText ?? '';
  }

  set text(value: string) {
    if (value === this.currentText) return;
    this.currentText = value;
    const fragment = renderMarkdown(value);
    for (const pre of fragment.querySelectorAll('pre')) addCopyButton(pre);
    this.replaceChildren(fragment);
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
