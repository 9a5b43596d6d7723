// A path as the chat shows it (src/presentation/displayPath.ts): workspace-relative words, the full path in the
// tooltip, and a button that asks the host to open the file (the host's resolver checks it: network paths are
// refused, files outside the workspace confirmed). A path that names no local file is text only.
import { html, nothing, type TemplateResult } from 'lit';
import { property } from 'lit/decorators.js';
import { displayPath, fileReference, workspaceFile } from '../../src/presentation';
import { requestHost } from '../events';
import { UNSAFE_HREF_ATTRIBUTE } from '../lib/markdown';
import { WorkspaceRootsWatch, workspaceRoots } from '../state/workspaceRoots';
import { SubchatsElement, codicon } from './base';

export class SubchatsPath extends SubchatsElement {
  /** The path, file URI or workspace-relative path as it came (agent output, a diff, a Changes row). */
  @property({ attribute: false }) path = '';
  /** `path` is workspace-relative as the prompt box holds it (`src/a.ts`, or `folder/src/a.ts` with several folders). */
  @property({ type: Boolean }) workspaceRelative = false;
  /** The line to open at, when known, and the last line of a range (a selection chip). */
  @property({ attribute: false }) line: number | undefined;
  @property({ attribute: false }) endLine: number | undefined;
  /** Words to show instead of the path (a Markdown link's text); the tooltip still says where it leads. */
  @property({ attribute: false }) label: string | undefined;
  /** Shown as inline code (a path the agent wrote in backticks). */
  @property({ type: Boolean }) code = false;
  /** A codicon before the words. */
  @property({ attribute: false }) icon: string | undefined;
  /** Shown without the button (a file the change deleted). */
  @property({ type: Boolean }) textOnly = false;
  /** Extra classes for the button or text (layout of the place it is in). */
  @property({ attribute: false }) classes = '';

  constructor() {
    super();
    new WorkspaceRootsWatch(this);
  }

  protected override render(): TemplateResult {
    const roots = workspaceRoots();
    const path = this.workspaceRelative ? (workspaceFile(this.path, roots) ?? this.path) : this.path;
    const shown = displayPath(path, roots, this.line, this.endLine);
    const words = this.label ?? shown.text;
    const body = html`${this.icon ? html`${codicon(this.icon)} ` : nothing}${this.code ? html`<code>${words}</code>` : words}`;
    const { target, line } = shown;
    if (target === undefined || this.textOnly) return html`<span class="sc-path ${this.classes}" title=${shown.tooltip}>${body}</span>`;
    return html`<button
      type="button"
      class="sc-link sc-path ${this.classes}"
      title=${shown.tooltip}
      @click=${() => requestHost(this, line === undefined ? { type: 'openFile', path: target } : { type: 'openFile', path: target, line })}
    >${body}</button>`;
  }
}

/**
 * In sanitized agent markdown: a link to a local file, and inline code that is a path in the workspace or home
 * folder (or a file URI), become path elements; anything else stays as it was.
 */
export function linkFileReferences(root: DocumentFragment): void {
  const roots = workspaceRoots();
  for (const anchor of root.querySelectorAll(`a[${UNSAFE_HREF_ATTRIBUTE}]`)) {
    const href = anchor.getAttribute(UNSAFE_HREF_ATTRIBUTE) ?? '';
    anchor.removeAttribute(UNSAFE_HREF_ATTRIBUTE);
    const reference = fileReference(href, roots);
    if (!reference) continue;
    const words = anchor.textContent ?? '';
    anchor.replaceWith(pathElement(reference, { label: words.trim() === '' || words === href ? undefined : words }));
  }
  for (const code of root.querySelectorAll('code')) {
    if (code.closest('pre')) continue;
    const reference = fileReference(code.textContent ?? '', roots);
    if (reference) code.replaceWith(pathElement(reference, { code: true }));
  }
}

function pathElement(reference: { readonly path: string; readonly line?: number }, options: { readonly label?: string | undefined; readonly code?: boolean }): SubchatsPath {
  const element = document.createElement('subchats-path');
  element.path = reference.path;
  element.line = reference.line;
  element.label = options.label;
  element.code = options.code === true;
  return element;
}

customElements.define('subchats-path', SubchatsPath);

declare global {
  interface HTMLElementTagNameMap {
    'subchats-path': SubchatsPath;
  }
}
