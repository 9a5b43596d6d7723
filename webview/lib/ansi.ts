// Terminal output with ANSI SGR colours -> styled runs of plain text. Only colour numbers and flags survive;
// every other escape sequence is dropped, so terminal output can never become markup or CSS.

interface AnsiStyle {
  readonly fg?: string;
  readonly bg?: string;
  readonly bold?: boolean;
  readonly dim?: boolean;
  readonly italic?: boolean;
  readonly underline?: boolean;
  readonly inverse?: boolean;
}

export interface AnsiRun {
  readonly text: string;
  readonly style: AnsiStyle;
}

const BASIC_NAMES = ['Black', 'Red', 'Green', 'Yellow', 'Blue', 'Magenta', 'Cyan', 'White'];

/** VS Code's terminal palette variables, so colours follow the theme. */
function basicColor(index: number, bright: boolean): string {
  const name = `${bright ? 'Bright' : ''}${BASIC_NAMES[index] ?? 'White'}`;
  return `var(--vscode-terminal-ansi${name})`;
}

function xterm256(n: number): string {
  if (n < 8) return basicColor(n, false);
  if (n < 16) return basicColor(n - 8, true);
  if (n < 232) {
    const i = n - 16;
    const level = (v: number): number => (v === 0 ? 0 : 55 + v * 40);
    return `rgb(${level(Math.floor(i / 36))}, ${level(Math.floor(i / 6) % 6)}, ${level(i % 6)})`;
  }
  const grey = 8 + (n - 232) * 10;
  return `rgb(${grey}, ${grey}, ${grey})`;
}

function clampByte(value: number | undefined): number {
  return Math.max(0, Math.min(255, Math.trunc(value ?? 0)));
}

/** Reads an extended colour (`38;5;n` or `38;2;r;g;b`) starting at codes[i]; returns [colour, codes used]. */
function extendedColor(codes: number[], i: number): [string | undefined, number] {
  const mode = codes[i + 1];
  if (mode === 5) return [xterm256(clampByte(codes[i + 2])), 2];
  if (mode === 2) return [`rgb(${clampByte(codes[i + 2])}, ${clampByte(codes[i + 3])}, ${clampByte(codes[i + 4])})`, 4];
  return [undefined, 0];
}

function applySgr(style: AnsiStyle, codes: number[]): AnsiStyle {
  let next: { -readonly [K in keyof AnsiStyle]: AnsiStyle[K] } = { ...style };
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i] ?? 0;
    if (code === 0) next = {};
    else if (code === 1) next.bold = true;
    else if (code === 2) next.dim = true;
    else if (code === 3) next.italic = true;
    else if (code === 4) next.underline = true;
    else if (code === 7) next.inverse = true;
    else if (code === 22) next.bold = next.dim = false;
    else if (code === 23) next.italic = false;
    else if (code === 24) next.underline = false;
    else if (code === 27) next.inverse = false;
    else if (code >= 30 && code <= 37) next.fg = basicColor(code - 30, false);
    else if (code >= 90 && code <= 97) next.fg = basicColor(code - 90, true);
    else if (code === 39) delete next.fg;
    else if (code >= 40 && code <= 47) next.bg = basicColor(code - 40, false);
    else if (code >= 100 && code <= 107) next.bg = basicColor(code - 100, true);
    else if (code === 49) delete next.bg;
    else if (code === 38 || code === 48) {
      const [color, used] = extendedColor(codes, i);
      if (color) next[code === 38 ? 'fg' : 'bg'] = color;
      i += used;
    }
  }
  return next;
}

// CSI sequences, OSC sequences (BEL or ST terminated), and other two-byte escapes.
// eslint-disable-next-line no-control-regex
const ESCAPE = /\x1b\[([0-9;?]*)([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]?/g;
// eslint-disable-next-line no-control-regex
const OTHER_CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/** Keeps what a terminal would show after carriage returns overwrite a line (the common progress-bar case). */
function resolveCarriageReturns(text: string): string {
  if (!text.includes('\r')) return text;
  return text
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => {
      const parts = line.split('\r');
      let last = parts[parts.length - 1] ?? '';
      for (let i = parts.length - 1; last === '' && i > 0; i--) last = parts[i - 1] ?? '';
      return last;
    })
    .join('\n');
}

export function parseAnsi(input: string): AnsiRun[] {
  const text = resolveCarriageReturns(input);
  const runs: AnsiRun[] = [];
  let style: AnsiStyle = {};
  let last = 0;
  const push = (chunk: string): void => {
    const clean = chunk.replace(OTHER_CONTROLS, '');
    if (clean === '') return;
    const previous = runs[runs.length - 1];
    if (previous && previous.style === style) runs[runs.length - 1] = { text: previous.text + clean, style };
    else runs.push({ text: clean, style });
  };
  for (const match of text.matchAll(ESCAPE)) {
    push(text.slice(last, match.index));
    last = match.index + match[0].length;
    if (match[2] === 'm') {
      const codes = (match[1] ?? '').split(';').map((part) => (part === '' ? 0 : Number.parseInt(part, 10)));
      style = applySgr(style, codes.map((n) => (Number.isFinite(n) ? n : 0)));
    }
  }
  push(text.slice(last));
  return runs;
}
