// Message text grows by `+=` of small chunks. V8 keeps each such concatenation as a rope (a ~32-byte
// ConsString node plus the chunk's own string), so a streamed message held ~3 bytes of heap per text byte
// and a lookup on it flattens the whole rope anyway. Flattening whenever the length crosses a step that
// grows with the length (1/32 of it, at least 16 chars) bounds the rope to a few nodes per step and keeps
// the copying amortised O(1) per appended char. The result is an ordinary string for every reader.

/** Any RegExp run flattens its subject in place (the rope node then points at one flat string). */
const FLATTEN = /^/;

export function appendText(text: string, piece: string): string {
  if (piece === '') return text;
  const joined = text + piece;
  const shift = Math.max(4, 26 - Math.clz32(joined.length)); // log2 of the step: 16 chars, or length/32
  if (text.length >>> shift !== joined.length >>> shift) FLATTEN.test(joined);
  return joined;
}
