// What the host decides about a webview's request beyond its shape (shapes: src/protocol/messageGuards.ts).
// Pure (no 'vscode').

/** Only web and mail links leave VS Code, and only after the user confirms. */
export function isExternalLink(url: string): boolean {
  try {
    return ['http:', 'https:', 'mailto:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}
