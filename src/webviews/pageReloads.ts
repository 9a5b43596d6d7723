// When a chat's page says its bundle or stylesheet did not load (its load guard, see chatHtml), the panel loads
// the page again: a little later each time, because what failed (a service worker another webview registered)
// settles within moments. After the last try the panel shows why it is empty instead of trying forever. Pure
// (no 'vscode'): the panel passes what reloading and giving up do.

/** The waits before each new load of a page that failed; one more failure after the last gives up. */
export const PAGE_RELOAD_DELAYS_MS: readonly number[] = [250, 1000, 4000];

export interface PageReloadsOptions {
  /** Loads the page again (a new HTML document). */
  readonly reload: () => void;
  /** Shows why the chat is empty; `asset` is the file that did not load. */
  readonly giveUp: (asset: string) => void;
  readonly log?: (text: string) => void;
}

export class PageReloads {
  private tries = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  constructor(private readonly options: PageReloadsOptions) {}

  /** A page's asset failed. Several failures of one page (its script and its stylesheet) make one reload. */
  failed(asset: string): void {
    if (this.disposed || this.timer !== undefined) return;
    const delay = PAGE_RELOAD_DELAYS_MS[this.tries];
    if (delay === undefined) {
      this.options.log?.(`Chat panel: the page did not load ${asset} after ${this.tries + 1} tries; the panel says so`);
      this.options.giveUp(asset);
      return;
    }
    this.tries++;
    this.options.log?.(`Chat panel: the page did not load ${asset}; loading it again in ${delay} ms (try ${this.tries + 1} of ${PAGE_RELOAD_DELAYS_MS.length + 1})`);
    // dispose() clears the timer, so a pending reload never runs for a closed panel.
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.options.reload();
    }, delay);
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
