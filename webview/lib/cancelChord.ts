// The chat's own Ctrl+Alt+C (Cmd+Alt+C on macOS), package.json's key for Subchats: Cancel Focused Session.
// VS Code in a browser (code-server, vscode.dev, Codespaces) never forwards a Ctrl/Cmd + C, V or X pressed
// in a webview to the workbench: it leaves those to the browser as copy, paste and cut (the webview host's
// isCopyPasteOrCut tests the keyCode). So in the chat the keybinding cannot fire, and the chat answers the
// chord itself.

/** The keyCode VS Code's webview host keeps for the browser with Ctrl or Cmd held (the C of copy). */
const KEY_C = 67;

export type ChordKeys = Pick<KeyboardEvent, 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey' | 'keyCode' | 'getModifierState'>;

/**
 * Whether `event` is the cancel chord: Ctrl+Alt+C, or Cmd+Alt+C on macOS (no other modifier). Windows and
 * Linux report AltGr as Ctrl+Alt: AltGr+C types a letter (ć on a Polish layout) and is no chord. `key` is
 * not compared: Cmd+Alt+C on macOS reads 'ç'.
 */
export function isCancelChord(event: ChordKeys, mac: boolean): boolean {
  const primary = mac ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey && !event.getModifierState('AltGraph');
  return primary && event.altKey && !event.shiftKey && event.keyCode === KEY_C;
}

/** Whether the webview runs on macOS, where the chord uses Cmd (as package.json's `mac` key does). */
export function onMac(): boolean {
  return /Mac|iPhone|iPad/.test(navigator.userAgent);
}
