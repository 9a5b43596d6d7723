// The heights lit-virtualizer gave its list since the last scroll event. It sizes the list (min-height) as it
// measures entries, and on the way the list can be shorter for a moment: the browser then clamps the scroll, and
// the list has grown back by the time the scroll event comes. What the scroll event alone shows is a scroll up
// with the content's height unchanged, which looks like someone looking back (issue 23 item 1).

export class ListHeights {
  private shortest = Number.POSITIVE_INFINITY;
  private list: HTMLElement | null = null;
  private readonly observer = new MutationObserver((records) => this.note(records));

  /** Watches this list from now on (null: none). */
  watch(list: HTMLElement | null): void {
    if (list === this.list) return;
    this.observer.disconnect();
    this.list = list;
    if (list) this.observer.observe(list, { attributes: true, attributeFilter: ['style'], attributeOldValue: true });
  }

  /** Where the scroller's content ended when the list was at its shortest since the last `restart`. */
  shortestEnd(scroller: Element): number {
    this.note(this.observer.takeRecords());
    const now = minHeightIn(this.list?.getAttribute('style') ?? null);
    if (now === undefined || this.shortest >= now) return scroller.scrollHeight;
    return scroller.scrollHeight - (now - this.shortest);
  }

  /** A scroll event: the heights before it no longer matter. */
  restart(): void {
    this.observer.takeRecords();
    this.shortest = Number.POSITIVE_INFINITY;
  }

  dispose(): void {
    this.observer.disconnect();
    this.list = null;
  }

  private note(records: readonly MutationRecord[]): void {
    for (const record of records) {
      const height = minHeightIn(record.oldValue);
      if (height !== undefined) this.shortest = Math.min(this.shortest, height);
    }
  }
}

/** The min-height a style attribute sets, in px. */
function minHeightIn(style: string | null): number | undefined {
  const match = /(?:^|;)\s*min-height:\s*([\d.]+)px/.exec(style ?? '');
  return match ? Number(match[1]) : undefined;
}
