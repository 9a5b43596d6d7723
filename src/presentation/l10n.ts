// The words of the pure layers (presentation, store, the tree's models) in the user's language, without
// importing vscode: the host hands over VS Code's bundle for this extension (vscode.l10n.bundle) at activation,
// and the chat webview can be handed the same bundle, so the tree and the chat say the same words. The bundle
// is the one vscode.l10n.t reads: English messages as keys, no entry (or no bundle) means English.

/** A translation bundle as VS Code gives it: English message -> translated message. */
export type L10nBundle = Readonly<Record<string, string>>;

let bundle: L10nBundle | undefined;

/** From now on `t` translates with `next` (undefined: English). Call before anything is presented. */
export function useL10nBundle(next: L10nBundle | undefined): void {
  bundle = next;
}

/** Messages split at their placeholders, once each (a row of the tree formats a few dozen per refresh). */
const templates = new Map<string, string[]>();
/** Messages are this extension's, a few hundred; the bound only keeps a caller that formats made-up text from growing it. */
const MAX_TEMPLATES = 5000;

/**
 * `message` in the user's language with `{0}`, `{1}`… replaced by `args`, as vscode.l10n.t does. Call it when
 * the text is shown, never while a module loads (the bundle is not there yet).
 */
export function t(message: string, ...args: readonly (string | number | boolean)[]): string {
  const translated = bundle?.[message] ?? message;
  // Without arguments every placeholder stays as it is: nothing to replace (most messages; the tree builds many).
  if (args.length === 0) return translated;
  let parts = templates.get(translated);
  if (!parts) {
    if (templates.size >= MAX_TEMPLATES) templates.clear();
    templates.set(translated, (parts = translated.split(/\{(\d+)\}/)));
  }
  // Odd parts are placeholder indexes (a string split on a capturing group); an index without an argument stays.
  let out = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) {
    const arg = args[Number(parts[i])];
    out += (arg === undefined ? `{${parts[i]}}` : String(arg)) + parts[i + 1]!;
  }
  return out;
}

/** The id of the chat page's JSON data element that carries the bundle (src/webviews/chatHtml.ts writes it). */
export const L10N_ELEMENT_ID = 'subchats-l10n';

/** More than any real bundle (this extension's English one is a few hundred messages), less than a page can choke on. */
const MAX_BUNDLE_CHARS = 2_000_000;

/**
 * The bundle the host wrote into the chat page, if it is one: JSON of a flat object of strings, not too big.
 * Anything else (no bundle, a broken or odd one) is undefined, and the chat speaks English.
 */
export function parseL10nBundle(text: string | null | undefined): L10nBundle | undefined {
  if (!text || text.length > MAX_BUNDLE_CHARS) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const entries = Object.entries(value);
  if (!entries.every(([, translated]) => typeof translated === 'string')) return undefined;
  // A null prototype: a message such as "constructor" or "__proto__" is a key, never an inherited member.
  return Object.assign(Object.create(null) as Record<string, string>, Object.fromEntries(entries));
}
