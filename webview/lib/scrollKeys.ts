// Which keys scroll the chat, for the two that watch them: the transcript (a scroll after one is the user's) and
// a message's note of earlier text (a scroll up to it asks for the page). In a text field the same keys move
// the caret or recall the last prompt (↑ in an empty prompt box), and scroll nothing.

const UP_KEYS = new Set(['ArrowUp', 'PageUp', 'Home']);
const DOWN_KEYS = new Set(['ArrowDown', 'PageDown', 'End', ' ']);

/** The way a key scrolls the chat, or undefined when it does not (another key, or typed in a text field). */
export function scrollKeyOf(event: KeyboardEvent): 'up' | 'down' | undefined {
  const way = UP_KEYS.has(event.key) ? 'up' : DOWN_KEYS.has(event.key) ? 'down' : undefined;
  if (!way) return undefined;
  const target = event.composedPath()[0];
  return target instanceof Element && target.closest('textarea, input, select, [contenteditable]:not([contenteditable="false"])') ? undefined : way;
}
