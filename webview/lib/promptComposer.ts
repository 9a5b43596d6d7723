// Pure pieces of the prompt box: which completion the text before the caret asks for, the commands matching a
// query, and the session's earlier prompts to walk with ↑/↓.
import type { AvailableCommand, Entry } from '../../src/protocol/transcript';

/** `/` at the very start lists commands; `@` after a space (or at the start) lists workspace files. */
export type CompletionTrigger =
  | { readonly kind: 'command'; readonly query: string; readonly start: number }
  | { readonly kind: 'file'; readonly query: string; readonly start: number };

export function completionTrigger(draft: string, caret: number): CompletionTrigger | undefined {
  const before = draft.slice(0, caret);
  const command = /^\/(\S*)$/.exec(before);
  if (command) return { kind: 'command', query: command[1] ?? '', start: 0 };
  const file = /(^|\s)@([^\s@]*)$/.exec(before);
  if (file) return { kind: 'file', query: file[2] ?? '', start: before.length - (file[2]?.length ?? 0) - 1 };
  return undefined;
}

/** Commands whose name starts with the query first, then those containing it (in name or description). */
export function matchingCommands(commands: readonly AvailableCommand[], query: string): AvailableCommand[] {
  const q = query.toLowerCase();
  const starts = commands.filter((c) => c.name.toLowerCase().startsWith(q));
  const contains = commands.filter((c) => !starts.includes(c) && (c.name.toLowerCase().includes(q) || c.description.toLowerCase().includes(q)));
  return [...starts, ...contains];
}

/** The draft with `draft[start, caret)` replaced by `insert`, and where the caret goes after it. */
export function replaceRange(draft: string, start: number, caret: number, insert: string): { text: string; caret: number } {
  return { text: draft.slice(0, start) + insert + draft.slice(caret), caret: start + insert.length };
}

/** What the user sent in this session, oldest first, without repeats in a row. */
export function promptHistory(entries: readonly Entry[]): string[] {
  const prompts: string[] = [];
  for (const entry of entries) {
    if (entry.kind !== 'message' || entry.role !== 'user') continue;
    const text = entry.text.trim();
    if (text !== '' && prompts[prompts.length - 1] !== text) prompts.push(text);
  }
  return prompts;
}

/**
 * Walks earlier prompts: ↑ from an empty box starts at the newest; ↓ past the newest empties the box again.
 * The walk ends as soon as the user edits the recalled text.
 */
export class HistoryWalk {
  private index: number | undefined;
  private shown = '';

  /** The text to show after ↑ (`-1`) or ↓ (`+1`), or undefined when the key is not for the walk. */
  step(history: readonly string[], draft: string, direction: -1 | 1): string | undefined {
    if (this.index !== undefined && draft !== this.shown) this.index = undefined;
    if (this.index === undefined) {
      if (draft !== '' || direction === 1 || history.length === 0) return undefined;
      this.index = history.length;
    }
    const next = this.index + direction;
    if (next < 0) return this.shown;
    if (next >= history.length) {
      this.index = undefined;
      this.shown = '';
      return '';
    }
    this.index = next;
    this.shown = history[next] ?? '';
    return this.shown;
  }

  reset(): void {
    this.index = undefined;
  }
}
