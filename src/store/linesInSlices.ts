// Long texts (a restored history of tens of megabytes) are walked line by line in slices of a few
// milliseconds, giving the event loop back between slices: the extension host keeps answering VS Code
// (other extensions, the tree's first paint) while a history replays. No I/O, no 'vscode'.

export interface SliceOptions {
  /** Work per slice before the loop gets a turn. */
  readonly sliceMs?: number;
  /** Gives the event loop a turn (setImmediate by default). */
  readonly yieldNow?: () => Promise<void>;
  readonly now?: () => number;
}

const SLICE_MS = 8;
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Calls `onLine` for each line of `text` (split at '\n', numbered from 1), yielding every `sliceMs`. */
export async function eachLineInSlices(text: string, onLine: (line: string, lineNumber: number) => void, options: SliceOptions = {}): Promise<void> {
  const { sliceMs = SLICE_MS, yieldNow = nextTurn, now = () => performance.now() } = options;
  let sliceStart = now();
  let lineNumber = 0;
  for (let start = 0; ; ) {
    const end = text.indexOf('\n', start);
    onLine(end < 0 ? text.slice(start) : text.slice(start, end), ++lineNumber);
    if (end < 0) return;
    start = end + 1;
    if (now() - sliceStart >= sliceMs) {
      await yieldNow();
      sliceStart = now();
    }
  }
}
