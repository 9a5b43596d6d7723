// Agent-supplied text on its way into VS Code UI (notifications, quick picks, status bar): VS Code turns
// `[label](command:…)` into a clickable link and `$(icon)` into an icon there, so such text is made inert.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;

export function inertUiText(text: string, max = 200): string {
  const flat = text.replace(CONTROL, ' ').replace(BIDI, '').replace(/\]\s*\(/g, '] (').replace(/\$\(/g, '$ (');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
