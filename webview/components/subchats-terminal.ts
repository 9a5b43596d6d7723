// Output of a client-side terminal, with ANSI colours turned into styled text runs (never markup).
import { html, type PropertyValues, type TemplateResult } from 'lit';
import { property } from 'lit/decorators.js';
import { parseAnsi, type AnsiRun } from '../lib/ansi';
import { cspStyle } from '../lib/cspStyle';
import { keepReadable } from '../lib/readableText';
import type { ChatStore } from '../state/chatStore';
import { OUTCOME_TOPIC, TERMINALS_TOPIC } from '../state/topics';
import { refusalNote } from './refusal';
import { StoreWatch } from '../state/storeWatch';
import { t, terminalGrantsCancel } from '../../src/presentation';
import { requestHost } from '../events';
import { STOP_ICON, SubchatsElement, codicon } from './base';

export class SubchatsTerminal extends SubchatsElement {
  @property({ attribute: false }) store: ChatStore | undefined;
  @property({ attribute: false }) terminalId = '';
  /** The session whose tool call shows this terminal (an agent terminal is cancelled through it). */
  @property({ attribute: false }) sessionId = '';
  /** The session's items may be cancelled alone now (its header's `toolCallCancel`, from the tool call card). */
  @property({ attribute: false }) itemCancelAllowed = false;
  private parsed: { output: string; runs: AnsiRun[] } | undefined;

  constructor() {
    super();
    new StoreWatch(this, () => ({ store: this.store, topics: [TERMINALS_TOPIC, OUTCOME_TOPIC] }));
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    keepReadable(this);
  }

  protected override render(): TemplateResult {
    const terminal = this.store?.mirror.terminal(this.terminalId);
    if (!terminal) {
      return html`<div class="sc-muted">${codicon('terminal')} ${t('Terminal {0} (no output yet)', this.terminalId)}</div>`;
    }
    if (this.parsed?.output !== terminal.output) this.parsed = { output: terminal.output, runs: parseAnsi(terminal.output) };
    const exit = terminal.exitStatus;
    const command = [terminal.command, ...terminal.args].join(' ').trim();
    const cancellable = this.itemCancelAllowed && terminalGrantsCancel(terminal);
    return html`<div>
      ${command || cancellable
        ? html`<div class="sc-muted sc-row">
            ${codicon('terminal')} <code class="sc-grow">${command}</code>
            ${cancellable
              ? html`<button type="button" class="sc-button secondary" aria-label=${t('Stop the command {0}', command)} @click=${() => requestHost(this, { type: 'cancelTerminal', sessionId: this.sessionId, terminalId: this.terminalId })}>
                  ${codicon(STOP_ICON)} ${t('Stop')}
                </button>`
              : ''}
          </div>`
        : ''}
      ${refusalNote(this.store, { request: 'cancelTerminal', sessionId: this.sessionId, target: this.terminalId }, this.localName)}
      <pre class="sc-terminal" role="log" aria-label=${t('Terminal {0} output', this.terminalId)}>${this.parsed.runs.map(renderRun)}</pre>
      <div class="sc-muted">
        ${terminal.truncated ? `${t('Output truncated.')} ` : ''}${exit
          ? exit.signal
            ? t('Killed by {0}', exit.signal)
            : t('Exit code {0}', exit.exitCode ?? '?')
          : ''}
      </div>
    </div>`;
  }
}

function renderRun(run: AnsiRun): TemplateResult {
  const { style } = run;
  if (Object.keys(style).length === 0) return html`${run.text}`;
  const fg = style.inverse ? (style.bg ?? 'var(--vscode-terminal-background, var(--vscode-editor-background))') : style.fg;
  const bg = style.inverse ? (style.fg ?? 'var(--vscode-terminal-foreground, var(--vscode-foreground))') : style.bg;
  const classes = [
    style.bold ? 'sc-ansi-bold' : '',
    style.dim ? 'sc-ansi-dim' : '',
    style.italic ? 'sc-ansi-italic' : '',
    style.underline ? 'sc-ansi-underline' : '',
  ].join(' ');
  return html`<span class=${classes} ${cspStyle({ color: fg, 'background-color': bg })}>${run.text}</span>`;
}

customElements.define('subchats-terminal', SubchatsTerminal);

declare global {
  interface HTMLElementTagNameMap {
    'subchats-terminal': SubchatsTerminal;
  }
}
