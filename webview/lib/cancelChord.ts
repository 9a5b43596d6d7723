// The chat's own Ctrl+Alt+X (Ctrl+Cmd+X on macOS), package.json's key for Subchats: Cancel Focused Session.
// VS Code in a browser (code-server, vscode.dev, Codespaces) never forwards a Ctrl/Cmd + C, V or X pressed
// in a webview to the workbench: it leaves those to the browser as copy, paste and cut (the webview host's
// isCopyPasteOrCut tests the keyCode). So in the chat the keybinding cannot fire, and the chat answers the
// chord itself.

/** The keyCode VS Code's webview host keeps for the browser with Ctrl or Cmd held (the X of cut). */
const KEY_X = 88;

export type ChordKeys = Pick<KeyboardEvent, 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey' | 'keyCode' | 'getModifierState'>;

/**
 * Whether `event` is the cancel chord: Ctrl+Alt+X, or Ctrl+Cmd+X on macOS (no other modifier). Windows and
 * Linux report AltGr as Ctrl+Alt: AltGr+X types a letter (ź on a Polish layout) and is no chord. `key` is
 * not compared, the keyCode names the key whatever the layout makes of it.
 */
export function isCancelChord(event: ChordKeys, mac: boolean): boolean {
  const modifiers = mac
    ? event.ctrlKey && event.metaKey && !event.altKey
    : event.ctrlKey && event.altKey && !event.metaKey && !event.getModifierState('AltGraph');
  return modifiers && !event.shiftKey && event.keyCode === KEY_X;
}

/** Whether the webview runs on macOS, where the chord is package.json's `mac` key. */
export function onMac(): boolean {
  return /Mac|iPhone|iPad/.test(navigator.userAgent);
}
