// A virtualized list re-orders its items by moving their elements (lit's `repeat` moves the old first item to the
// end when the range shifts by one: [A, B] becomes [Z, A]). A move takes the element out of the document for a
// moment, and the browser drops the focus it held: the Copy button a keyboard user had just reached lost its
// focus as the chat scrolled to it, and Enter went to the page. This puts the focus back on the element that had
// it when the list moved it and nothing else took the focus meanwhile.

export class KeptFocus {
  private readonly moves = new MutationObserver((records) => this.onMoves(records));
  private list: Element | undefined;
  /** The element in the list that has (or had, until a move) the focus. */
  private focused: Element | undefined;

  constructor(host: HTMLElement) {
    host.addEventListener('focusin', this.onFocusIn);
    host.addEventListener('focusout', this.onFocusOut);
  }

  /** Watches the list's own children (the items it moves); a new list element replaces the old one. */
  watch(list: Element | null): void {
    if (list === this.list) return;
    this.moves.disconnect();
    this.list = list ?? undefined;
    if (list) this.moves.observe(list, { childList: true });
  }

  /** Stops watching (the host left the document); watch() starts again. The host's own listener stays with it. */
  stop(): void {
    this.moves.disconnect();
    this.list = undefined;
  }

  private readonly onFocusIn = (event: FocusEvent): void => {
    this.focused = event.composedPath()[0] as Element | undefined;
  };

  /**
   * The focus left. For nowhere: a move (put back by then, see onMoves) or the user clicking on no control; after
   * this task an element the focus did not come back to is forgotten, so a later move never takes the focus back
   * from where the user left it.
   */
  private readonly onFocusOut = (event: FocusEvent): void => {
    const left = event.composedPath()[0];
    if (left !== this.focused) return;
    // Focus that went to another element is the user's (a focusin in this list takes it up again).
    if (event.relatedTarget !== null) {
      this.focused = undefined;
      return;
    }
    setTimeout(() => {
      if (this.focused === left && document.activeElement !== left) this.focused = undefined;
    }, 0);
  };

  private onMoves(records: readonly MutationRecord[]): void {
    const focused = this.focused;
    if (!(focused instanceof HTMLElement) || !focused.isConnected) return;
    if (!records.some((record) => [...record.addedNodes].some((node) => node.contains(focused)))) return;
    // The browser drops the focus as the element leaves the document, or once the move is done: look now and
    // after the task, and only take it back from nowhere (the page), never from an element that took it.
    const restore = (): void => {
      if (this.focused === focused && focused.isConnected && (document.activeElement === null || document.activeElement === document.body)) focused.focus({ preventScroll: true });
    };
    restore();
    setTimeout(restore, 0);
  }
}
