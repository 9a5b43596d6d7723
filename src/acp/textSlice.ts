// `fs/read_text_file` line/limit slicing, shared by every host implementation.

/**
 * Returns `limit` lines of `content` starting at 1-based `line`, keeping the original line endings.
 * Omitted/null `line` means from the start; omitted/null `limit` means to the end.
 * A start past the end gives ''. Values below 1 are treated leniently (line → 1, limit → 0 lines).
 */
export function sliceLines(content: string, line?: number | null, limit?: number | null): string {
  const hasLine = typeof line === 'number' && Number.isFinite(line);
  const hasLimit = typeof limit === 'number' && Number.isFinite(limit);
  if (!hasLine && !hasLimit) return content;
  const startIndex = hasLine ? Math.max(0, Math.floor(line) - 1) : 0;
  const count = hasLimit ? Math.max(0, Math.floor(limit)) : Number.POSITIVE_INFINITY;
  if (count === 0) return '';

  let offset = 0;
  for (let skipped = 0; skipped < startIndex; skipped++) {
    const newline = content.indexOf('\n', offset);
    if (newline < 0) return '';
    offset = newline + 1;
  }
  if (offset >= content.length && startIndex > 0) return '';
  let end = offset;
  for (let taken = 0; taken < count; taken++) {
    const newline = content.indexOf('\n', end);
    if (newline < 0) return content.slice(offset);
    end = newline + 1;
  }
  return content.slice(offset, end);
}
