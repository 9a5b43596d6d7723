// Agent text shown to a person. Bidi embedding, override and isolate controls reorder what follows them
// ("txt\u202Eexe.js" reads as "txtsj.exe"), so they are shown as visible markers instead of being obeyed;
// right-to-left letters themselves are left alone.
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;
// C0 (but tab and newline) and C1 controls: in a terminal they are escape sequences (OSC 52 clipboard,
// OSC 0 title, CSI 2J clear), elsewhere invisible.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function visibleBidi(text: string): string {
  return text.replace(BIDI_CONTROLS, (c) => `⟪U+${c.codePointAt(0)!.toString(16).toUpperCase()}⟫`);
}

/** Text without control characters (a CRLF stays a line break; any other control becomes a space) and with visible bidi controls. */
export function plainText(text: string): string {
  return visibleBidi(text.replace(/\r\n/g, '\n').replace(CONTROLS, ' '));
}
