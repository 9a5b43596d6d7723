// Which links may leave VS Code (after the user confirms): one rule for links in the chat and links an agent asks
// the host to open. Pure (no 'vscode').

/** Only web and mail links leave VS Code, and only after the user confirms. */
export function isExternalLink(url: string): boolean {
  try {
    return ['http:', 'https:', 'mailto:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}
