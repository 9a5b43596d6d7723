// Showing an ACP v2 diff's git patch (`patch: {format: "git_patch", text}`): which line of it adds or removes.
// (What a patch changes per file, for Changes lists and Open Changes, is read in src/store/gitPatches.ts.)

export type PatchLineKind = 'added' | 'removed' | 'header' | 'context';

/** A line of a git patch: `+`/`-` inside a hunk, file and hunk headers, everything else context. */
export function patchLineKind(line: string): PatchLineKind {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('diff ') || line.startsWith('@@') || line.startsWith('index ')) return 'header';
  if (line.startsWith('+')) return 'added';
  if (line.startsWith('-')) return 'removed';
  return 'context';
}
