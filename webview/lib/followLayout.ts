// The main chat's layout: lit-virtualizer's flow layout, whose pin to the end may be held back so that a chat
// following its end moves down by at most a screen per frame. When a frame comes late (a loaded machine, a
// busy workbench sharing the webview's thread) more than a screen of text can arrive between two frames; a
// plain pin then jumps over it and that text is never on screen. Held back, the chat scrolls through it and
// catches up with the end once the stream slows (issue 23 item 1).
import { FlowLayout } from '@lit-labs/virtualizer/layouts/flow.js';

/** The layout's pin (its type is not exported by the package). */
type PinOptions = FlowLayout['pin'];

export interface FollowLayoutConfig {
  readonly pin?: { readonly index: number; readonly block: 'end' };
  /** Where the top of the view may go at most, in the scroller's pixels (Infinity: wherever the pin says). */
  readonly followLimit?: () => number;
}

export class FollowLayout extends FlowLayout {
  /** Set from the config (BaseLayout assigns it in its constructor: no initializer here to overwrite it). */
  declare followLimit?: () => number;
  /** This reflow held the pin back: items are laid out around the view, not anchored on the pinned last one. */
  private heldBack = false;

  override get pin(): PinOptions {
    return this.heldBack ? null : super.pin;
  }

  override set pin(options: PinOptions) {
    super.pin = options;
  }

  /**
   * An item out of the DOM keeps the size it was measured at. The flow layout would take the average size, and
   * one long message makes that screens tall: scrolled to the top of such a message, the prompt above it was laid
   * out that tall and the view thrown down by as much, so the message's start could not be reached.
   */
  override _getSize(idx: number): number | undefined {
    return super._getSize(idx) ?? this._metricsCache.getChildSize(idx);
  }

  protected override _setPositionFromPin(): void {
    this.heldBack = false;
    const before = this._scrollPosition;
    super._setPositionFromPin();
    if (super.pin === null) return;
    const offset = this.offsetWithinScroller.top;
    const limit = (this.followLimit?.() ?? Number.POSITIVE_INFINITY) - offset;
    // Only a move down is held back: a pin that moves up (the content shrank) goes where it says.
    if (this._scrollPosition <= before || this._scrollPosition <= limit) return;
    this._scrollPosition = Math.max(before, limit);
    this._scrollError = before - this._scrollPosition;
    this.heldBack = true;
    // The flow layout keeps the item it anchors on until its sizes are stable. An anchor chosen while pinned (the
    // last item) would be placed at the end again, and its "error" would drag the view there: over the text above
    // it that was just measured taller (a message that grew by screens, then a subagent's card and more text).
    this._anchorIdx = null;
    this._anchorPos = null;
  }
}

/** A layout config for <lit-virtualizer>: the follow layout, pinned to the end or not. */
export function followLayout(config: FollowLayoutConfig): FollowLayoutConfig & { readonly type: typeof FollowLayout } {
  return { type: FollowLayout, ...config };
}
