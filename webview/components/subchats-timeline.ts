// A small picture of a parent's children over time: one bar per child, coloured by what it was doing
// (working, waiting for the user, not known) and ending in how it ended, so parallel work shows at a glance.
// The rows come from the header (src/presentation/timeline.ts); this only maps times to positions.
import { html, nothing, svg, type SVGTemplateResult, type TemplateResult } from 'lit';
import { property } from 'lit/decorators.js';
import { revealSession } from '../events';
import { clockTime, formatDuration, spentTimes, spentTimesText, t } from '../../src/presentation';
import type { ChatTimelineRow } from '../../src/protocol/webviewMessages';
import type { ChatStore } from '../state/chatStore';
import { StoreWatch } from '../state/storeWatch';
import { SecondTicker } from '../state/ticker';
import { SubchatsElement, codicon } from './base';

/** Width of the drawing in viewBox units (it is stretched to the available width). */
const WIDTH = 1000;

export class SubchatsTimeline extends SubchatsElement {
  @property({ attribute: false }) store: ChatStore | undefined;
  @property({ attribute: false }) sessionId = '';
  private open = true;

  constructor() {
    super();
    new StoreWatch(this, () => ({ store: this.store, topics: [this.sessionId] }));
    new SecondTicker(this, () => this.rows().some(isOpen));
  }

  private rows(): readonly ChatTimelineRow[] {
    return this.store?.mirror.session(this.sessionId)?.header.childTimeline ?? [];
  }

  protected override render(): TemplateResult | typeof nothing {
    const rows = this.rows();
    if (rows.length === 0) return nothing;
    const now = Date.now();
    const from = Math.min(...rows.map((row) => row.start));
    const to = Math.max(from + 1000, ...rows.map((row) => lastMoment(row, now)));
    const x = (at: number): number => ((at - from) / (to - from)) * WIDTH;
    return html`<details class="sc-timeline" ?open=${this.open} @toggle=${this.onToggle}>
      <summary>${codicon('graph-line')} ${rows.length === 1 ? t('Timeline · 1 subagent · {0}', formatDuration(to - from)) : t('Timeline · {0} subagents · {1}', rows.length, formatDuration(to - from))}</summary>
      <div class="sc-timeline-rows" role="list" aria-label=${t('Subagents over time')}>
        ${rows.map(
          (row) => html`<div class="sc-timeline-row" role="listitem" data-session-id=${row.sessionId} aria-label=${describe(row)}>
            <button type="button" class="sc-link sc-ellipsis" title=${t('Show {0} in this chat · {1}', row.label, spentTimesText(spentTimes(row.times, Date.now(), true)))} @click=${() => revealSession(this, row.sessionId)}>${row.label}</button>
            <svg class="sc-timeline-bar" viewBox="0 0 ${WIDTH} 12" preserveAspectRatio="none" aria-hidden="true">${this.bars(row, x, now)}</svg>
          </div>`,
        )}
      </div>
      <div class="sc-timeline-axis sc-muted"><span>${clockTime(from)}</span><span>${clockTime(to)}</span></div>
    </details>`;
  }

  private bars(row: ChatTimelineRow, x: (at: number) => number, now: number): SVGTemplateResult[] {
    const parts = row.segments.map((segment) => {
      const left = x(segment.start);
      const width = Math.max(2, x(segment.end ?? now) - left);
      return svg`<rect class="sc-phase-${segment.phase}" x=${left} y="3" width=${width} height="6"><title>${segment.label} ${clockTime(segment.start)}–${segment.end === null ? t('now') : clockTime(segment.end)}</title></rect>`;
    });
    if (row.end) {
      parts.push(svg`<rect class="sc-phase-${row.end.phase}" x=${Math.min(WIDTH - 8, Math.max(0, x(row.end.at) - 4))} y="0" width="8" height="12"><title>${row.end.label} ${clockTime(row.end.at)}</title></rect>`);
    }
    return parts;
  }

  private readonly onToggle = (event: Event): void => {
    this.open = (event.currentTarget as HTMLDetailsElement).open;
  };
}

const isOpen = (row: ChatTimelineRow): boolean => row.end === null && row.segments.some((segment) => segment.end === null);

function lastMoment(row: ChatTimelineRow, now: number): number {
  if (isOpen(row)) return now;
  return Math.max(row.start, row.end?.at ?? 0, ...row.segments.map((segment) => segment.end ?? segment.start));
}

/** The row in words, for screen readers: "Explorer: started 12:00:01, Done 12:00:09". */
function describe(row: ChatTimelineRow): string {
  const waits = row.segments.filter((segment) => segment.phase === 'waiting').length;
  const parts = [t('started {0}', clockTime(row.start))];
  if (waits > 0) parts.push(waits === 1 ? t('waited on you once') : t('waited on you {0} times', waits));
  parts.push(row.end ? `${row.end.label} ${clockTime(row.end.at)}` : t('still going'));
  return `${row.label}: ${parts.join(', ')} (${spentTimesText(spentTimes(row.times, Date.now(), true))})`;
}

customElements.define('subchats-timeline', SubchatsTimeline);

declare global {
  interface HTMLElementTagNameMap {
    'subchats-timeline': SubchatsTimeline;
  }
}
