// Waits for the chat's first layout to finish following the end, before a test scrolls it.
import type { ChatPage } from './harness';

/**
 * The chat has settled at its end (10 frames unchanged): what a test does next is a scroll away from it, not a
 * race with the first layout. The transcript is the panel's scroller.
 */
export async function settledAtEnd(page: ChatPage['page']): Promise<void> {
  await page.waitForFunction(() => {
    const w = window as unknown as { __layout?: string; __stableFrames?: number };
    const scroller = document.querySelector('subchats-transcript.sc-root-transcript')!;
    const layout = `${scroller.scrollTop}:${scroller.scrollHeight}`;
    w.__stableFrames = w.__layout === layout ? (w.__stableFrames ?? 0) + 1 : 0;
    w.__layout = layout;
    return scroller.scrollTop > 0 && w.__stableFrames >= 10;
  });
}
