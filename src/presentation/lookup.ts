// Small helpers for agent-supplied strings: table lookups that ignore inherited names, bounded text.

/** Looks up an agent-supplied key in a constant table; inherited names like "constructor" are not entries. */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** `text` cut to `max` characters with an ellipsis. */
export function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A theme colour id (`testing.iconPassed`) as the CSS variable VS Code defines in webviews. */
export function themeColorVar(colorId: string): string {
  return `var(--vscode-${colorId.replace(/\./g, '-')})`;
}
