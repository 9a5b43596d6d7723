// Which text a streamed entry's text grew from, so the markdown renderer takes just the added suffix. Reading
// the whole text instead (slice, indexOf, startsWith) makes V8 flatten the rope that `text + suffix` built,
// which copies the whole message once per chunk.
export interface TextGrowth {
  readonly from: string;
  readonly suffix: string;
  readonly to: string;
}

const growths = new WeakMap<object, TextGrowth>();

/** `text + suffix` when the append continues exactly where `text` ends; undefined otherwise (resync). */
export function grow(text: unknown, append: { readonly offset: number; readonly suffix: string }): TextGrowth | undefined {
  return typeof text === 'string' && text.length === append.offset ? { from: text, suffix: append.suffix, to: text + append.suffix } : undefined;
}

/** Remembers that `holder` (the new entry or content block) holds text that grew by `growth`. */
export function noteGrowth<T extends object>(holder: T, growth: TextGrowth): T {
  growths.set(holder, growth);
  return holder;
}

export function growthOf(holder: object): TextGrowth | undefined {
  return growths.get(holder);
}
