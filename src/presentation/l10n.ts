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

/**
 * `message` in the user's language with `{0}`, `{1}`… replaced by `args`, as vscode.l10n.t does. Call it when
 * the text is shown, never while a module loads (the bundle is not there yet).
 */
export function t(message: string, ...args: readonly (string | number | boolean)[]): string {
  const translated = bundle?.[message] ?? message;
  return translated.replace(/\{(\d+)\}/g, (placeholder, index: string) => {
    const arg = args[Number(index)];
    return arg === undefined ? placeholder : String(arg);
  });
}
