// An ACP v2 diff: the changed files (`changes`, authoritative) and, when the agent sent it, its git patch
// shown line by line. The texts before and after are not part of a v2 diff, so there is no "Open diff".
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { ownEntry, patchLineKind, t, visibleBidi } from '../../src/presentation';
import { keepReadable } from '../lib/readableText';
import { SubchatsElement, codicon } from './base';
import './subchats-path';

interface PatchChange {
  readonly operation: string;
  readonly path: string;
  readonly oldPath?: string;
}

export interface PatchDiff {
  readonly changes: readonly PatchChange[];
  readonly patch?: string;
}

const OPERATION_ICONS: Readonly<Record<string, string>> = { add: 'new-file', delete: 'trash', modify: 'diff', move: 'arrow-right', copy: 'copy' };

/** A v2 diff as the agent sent it, checked: changes without a string path are left out; none left, nothing to show. */
export function validPatchDiff(item: unknown): PatchDiff | undefined {
  const raw = item as { changes?: unknown; patch?: unknown } | null;
  if (!raw || !Array.isArray(raw.changes)) return undefined;
  const changes = raw.changes.flatMap((c: unknown): PatchChange[] => {
    const change = c as { operation?: unknown; path?: unknown; oldPath?: unknown } | null;
    if (!change || typeof change.path !== 'string') return [];
    const operation = typeof change.operation === 'string' ? change.operation : 'modify';
    return [{ operation, path: change.path, ...(typeof change.oldPath === 'string' ? { oldPath: change.oldPath } : {}) }];
  });
  if (changes.length === 0) return undefined;
  const patch = raw.patch as { text?: unknown } | null | undefined;
  return { changes, ...(typeof patch?.text === 'string' ? { patch: patch.text } : {}) };
}

/** `+`/`-` for added/removed lines of a git patch; headers and context are plain. */
function lineOp(line: string): '+' | '-' | ' ' {
  const kind = patchLineKind(line);
  return kind === 'added' ? '+' : kind === 'removed' ? '-' : ' ';
}

export class SubchatsPatch extends SubchatsElement {
  @property({ attribute: false }) diff!: PatchDiff;
  @state() private open = false;

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    keepReadable(this);
  }

  protected override render(): TemplateResult {
    const { changes, patch } = this.diff;
    return html`<div class="sc-diff">
      ${changes.map((change, i) => {
        return html`<div class="sc-row sc-diff-summary">
          ${i === 0 && patch !== undefined
            ? html`<button
                type="button"
                class="sc-icon-button"
                aria-expanded=${this.open ? 'true' : 'false'}
                aria-label=${this.open ? t('Hide the patch') : t('Show the patch')}
                @click=${() => (this.open = !this.open)}
              >
                ${codicon(this.open ? 'chevron-down' : 'chevron-right')}
              </button>`
            : codicon('blank')}
          ${codicon(ownEntry(OPERATION_ICONS, change.operation) ?? 'diff')}
          <span class="sc-grow sc-ellipsis"
            >${change.oldPath !== undefined ? html`<subchats-path .path=${change.oldPath} textOnly></subchats-path> → ` : nothing}<subchats-path
              .path=${change.path}
              ?textOnly=${change.operation === 'delete'}
            ></subchats-path
          ></span>
          <span class="sc-muted">${change.operation}</span>
        </div>`;
      })}
      ${this.open && patch !== undefined
        ? html`<pre class="sc-diff-lines" aria-label=${t('Patch')}>${patch.replace(/\n$/, '').split('\n').map((line) => {
            const op = lineOp(line);
            return html`<span class="sc-diff-line" data-op=${op === ' ' ? nothing : op}>${visibleBidi(line)}</span>`;
          })}</pre>`
        : nothing}
    </div>`;
  }
}

customElements.define('subchats-patch', SubchatsPatch);

declare global {
  interface HTMLElementTagNameMap {
    'subchats-patch': SubchatsPatch;
  }
}
