// The line diff before issue 10 (kept only as the benchmark baseline): it copies its work array on every step.

export interface DiffLine {
  readonly op: ' ' | '+' | '-';
  readonly text: string;
}

export interface LineDiff {
  readonly added: number;
  readonly removed: number;
  readonly lines: readonly DiffLine[];
}

/** Beyond this many edits the diff is shown as "all old lines removed, all new lines added". */
const MAX_EDIT_DISTANCE = 4000;

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function diffLines(oldText: string | null | undefined, newText: string): LineDiff {
  const a = splitLines(oldText ?? '');
  const b = splitLines(newText);
  // Common prefix and suffix first: most edits touch a small part of a file.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const middle = myers(a.slice(start, endA), b.slice(start, endB));
  const lines: DiffLine[] = [
    ...a.slice(0, start).map((text) => ({ op: ' ' as const, text })),
    ...middle,
    ...a.slice(endA).map((text) => ({ op: ' ' as const, text })),
  ];
  let added = 0;
  let removed = 0;
  for (const line of lines) {
    if (line.op === '+') added++;
    else if (line.op === '-') removed++;
  }
  return { added, removed, lines };
}

function myers(a: string[], b: string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0 || n + m > 200_000) return replaceAll(a, b);
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0))
          ? (v[offset + k + 1] ?? 0)
          : (v[offset + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a, b, offset, d);
    }
  }
  return replaceAll(a, b);
}

function backtrack(trace: Int32Array[], a: string[], b: string[], offset: number, dEnd: number): DiffLine[] {
  const out: DiffLine[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d] as Int32Array;
    const k = x - y;
    const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
    const prevK = down ? k + 1 : k - 1;
    const prevX = v[offset + prevK] ?? 0;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      out.push({ op: ' ', text: a[x] ?? '' });
    }
    if (down) {
      y--;
      out.push({ op: '+', text: b[y] ?? '' });
    } else {
      x--;
      out.push({ op: '-', text: a[x] ?? '' });
    }
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    out.push({ op: ' ', text: a[x] ?? '' });
  }
  return out.reverse();
}

function replaceAll(a: string[], b: string[]): DiffLine[] {
  return [...a.map((text) => ({ op: '-' as const, text })), ...b.map((text) => ({ op: '+' as const, text }))];
}

export interface DiffHunk {
  readonly lines: readonly DiffLine[];
  /** Unchanged lines skipped before this hunk. */
  readonly skippedBefore: number;
}

/** Groups changes with `context` unchanged lines around them; long unchanged runs are skipped. */
export function hunks(lines: readonly DiffLine[], context = 3): DiffHunk[] {
  const keep = new Array<boolean>(lines.length).fill(false);
  lines.forEach((line, i) => {
    if (line.op === ' ') return;
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) keep[j] = true;
  });
  const result: DiffHunk[] = [];
  let current: DiffLine[] | undefined;
  let skipped = 0;
  lines.forEach((line, i) => {
    if (!keep[i]) {
      current = undefined;
      skipped++;
      return;
    }
    if (!current) {
      current = [];
      result.push({ lines: current, skippedBefore: skipped });
      skipped = 0;
    }
    current.push(line);
  });
  return result;
}
