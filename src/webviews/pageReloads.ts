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

/**
 * How long a shown page may take to say `ready` before its panel is replaced. Far above a page's load on a
 * loaded machine (1-2 s), so a slow page is not thrown away; a replaced page starts over.
 */
export const STALLED_PAGE_MS = 10_000;
/** Panels one chat is replaced by for a stalled page, at most: a webview host that never loads stays as it is. */
export const MAX_PANEL_REPLACEMENTS = 2;

export interface StalledPagesOptions {
  /** Gives the chat a new panel (a new webview host) where this one is; `replacements` so far, this one included. */
  readonly replace: (replacements: number) => void;
  /** Replacements this chat had before this panel (a replaced panel's count goes on). */
  readonly replacements?: number;
  readonly log?: (text: string) => void;
}

/**
 * A page that never runs at all cannot report a failure: in code-server the webview host (VS Code's
 * `pre/index.html`) can wait for good on a service worker that another page controls, before it loads the
 * chat's HTML. Setting the HTML again goes to that same host; only a new panel gets a new one. So a shown page
 * that does not say `ready` in time gets its panel replaced, a bounded number of times.
 */
export class StalledPages {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private replacements: number;

  constructor(private readonly options: StalledPagesOptions) {
    this.replacements = options.replacements ?? 0;
  }

  /** A page is being loaded into a shown panel (created, shown again, reloaded): it should say `ready` soon. */
  expectReady(): void {
    if (this.timer !== undefined || this.replacements >= MAX_PANEL_REPLACEMENTS) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.replacements++;
      this.options.log?.(`Chat panel: the page did not start within ${STALLED_PAGE_MS} ms; the chat gets a new panel (${this.replacements} of ${MAX_PANEL_REPLACEMENTS})`);
      this.options.replace(this.replacements);
    }, STALLED_PAGE_MS);
  }

  /**
   * The page ran (it said `ready`, or its load guard reported): its webview host works, so a later stall (shown
   * again after Reload Webviews) counts its replacements from none. The bound is on replacements in a row.
   */
  ran(): void {
    this.replacements = 0;
    this.settled();
  }

  /** It is hidden and gone (or it ran): nothing to wait for. */
  settled(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.settled();
  }
}
