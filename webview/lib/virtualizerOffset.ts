// @lit-labs/virtualizer 2.1 measures where a list sits in its scroller as the difference of their screen
// positions. That holds for the page's scroller (its box moves as it scrolls) but not for an element that scrolls
// (the chat's transcript): the offset then shrinks by the scroller's scrollTop, so pinning to the end and
// scrolling an entry into view aim far past the end and the list renders nothing (lit/lit#4767, #3963; the fix
// upstream, lit/lit#5279, adds the scroll position). Until a release has it, the offset gets the scroll
// position here, and only while it still has the uncorrected value (a fixed virtualizer is left alone).
// The package does not export its Virtualizer class: its prototype is reached through the first instance.
import { virtualizerRef } from '@lit-labs/virtualizer/virtualize.js';

interface Offset {
  left: number;
  top: number;
}

/** The parts of a Virtualizer this reads (private in its types). */
interface VirtualizerInternals {
  _hostElement?: HTMLElement;
  _scrollerController?: { readonly element: Element } | null;
  _layout?: { offsetWithinScroller: Offset } | null;
  _updateView(): void;
}

let installed = false;

/**
 * Corrects every virtualizer from now on, given a <lit-virtualizer> whose virtualizer exists (it is made after
 * the element's first render; until then a list has not scrolled, and its offset is right).
 */
export function correctScrollerOffsets(list: Element): void {
  if (installed) return;
  const instance = (list as Partial<Record<typeof virtualizerRef, object>>)[virtualizerRef];
  const proto = instance ? (Object.getPrototypeOf(instance) as VirtualizerInternals) : undefined;
  const updateView = proto?._updateView;
  if (!proto || typeof updateView !== 'function') return;
  installed = true;
  proto._updateView = function (this: VirtualizerInternals): void {
    updateView.call(this);
    const host = this._hostElement;
    const scroller = this._scrollerController?.element;
    const layout = this._layout;
    // The page's scroller is measured right; a list that is its own scroller has offset 0.
    if (!host || !scroller || !layout || scroller === host || scroller === document.scrollingElement || scroller === document.documentElement) return;
    const hostBox = host.getBoundingClientRect();
    const scrollerBox = scroller.getBoundingClientRect();
    const offset = layout.offsetWithinScroller;
    if (offset.top !== hostBox.top - scrollerBox.top || offset.left !== hostBox.left - scrollerBox.left) return;
    layout.offsetWithinScroller = { left: offset.left + scroller.scrollLeft, top: offset.top + scroller.scrollTop };
  };
}
