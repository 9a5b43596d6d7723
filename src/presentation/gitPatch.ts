// Reading an ACP v2 diff's git patch (`patch: {format: "git_patch", text}`): which line of it adds or removes,
// and how many lines each file gained and lost. v2 diffs carry no file texts, so these counts are what a
// Changes list can show for them. Linear in the patch; never throws on malformed text.

export type PatchLineKind = 'added' | 'removed' | 'header' | 'context';

/** A line of a git patch: `+`/`-` inside a hunk, file and hunk headers, everything else context. */
export function patchLineKind(line: string): PatchLineKind {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('diff ') || line.startsWith('@@') || line.startsWith('index ')) return 'header';
  if (line.startsWith('+')) return 'added';
  if (line.startsWith('-')) return 'removed';
  return 'context';
}

/**
 * Lines added and removed per file path, as the patch names them (`b/` side; `a/` for a deleted file), with
 * the `a/`/`b/` prefixes taken off. Paths are compared by their ending: a patch names files relative to the
 * repository, an ACP diff by absolute path.
 */
export function patchFileCounts(patch: string): Map<string, { added: number; removed: number }> {
  const counts = new Map<string, { added: number; removed: number }>();
  let current: { added: number; removed: number } | undefined;
  let from: string | undefined;
  for (const line of patch.split('\n')) {
    if (line.startsWith('diff --git ')) {
      current = undefined;
      from = undefined;
    } else if (line.startsWith('--- ')) {
      from = stripPrefix(line.slice(4));
    } else if (line.startsWith('+++ ')) {
      const to = stripPrefix(line.slice(4));
      const path = to === '/dev/null' ? from : to;
      if (path && path !== '/dev/null') {
        current = counts.get(path) ?? { added: 0, removed: 0 };
        counts.set(path, current);
      }
    } else if (current && !line.startsWith('@@')) {
      const kind = patchLineKind(line);
      if (kind === 'added') current.added++;
      else if (kind === 'removed') current.removed++;
    }
  }
  return counts;
}

/** The counts of the file at `path` (absolute or relative) in counts read from a patch. */
export function countsForPath(counts: ReadonlyMap<string, { added: number; removed: number }>, path: string): { added: number; removed: number } | undefined {
  for (const [patchPath, value] of counts) if (patchNamesPath(patchPath, path)) return value;
  return undefined;
}

/** Whether a file name of a patch (`a/`/`b/` prefix already taken off) is the file at `path`, absolute or relative. */
export function patchNamesPath(patchPath: string, path: string): boolean {
  const normalized = path.replace(/\\/g, '/');
  return normalized === patchPath || normalized.endsWith(`/${patchPath}`);
}

/** A file name as a patch's `---`/`+++` line gives it: without a trailing tab part and the `a/`/`b/` prefix. */
export function stripPrefix(path: string): string {
  const trimmed = path.replace(/\t.*$/, '').trim();
  return /^[ab]\//.test(trimmed) ? trimmed.slice(2) : trimmed;
}
