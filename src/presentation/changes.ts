// How Changes lists read, in the tree and in the chat: "2 files changed", "+3 −1", a path relative to the session's folder.
import type { FileChangeSummary } from '../protocol/transcript';
import { pathUnder } from './displayPath';
import { t } from './l10n';

/** "1 file changed", "3 files changed"; empty for none. */
export function filesChangedLabel(count: number): string {
  if (count <= 0) return '';
  return count === 1 ? t('1 file changed') : t('{0} files changed', count);
}

/** "+3 −1"; counts that are upper bounds get "≤"; a change without its text, or its text before, says so. */
export function changeCounts(change: Pick<FileChangeSummary, 'added' | 'removed' | 'exact' | 'textKnown' | 'beforeKnown' | 'fromPatch'>): string {
  if (change.fromPatch) return `+${change.added} −${change.removed}`;
  if (!change.textKnown) return t('no text reported');
  if (!change.beforeKnown) return change.added === 1 ? t('1 line written, earlier text not reported') : t('{0} lines written, earlier text not reported', change.added);
  const bound = change.exact ? '' : '≤';
  return `+${bound}${change.added} −${bound}${change.removed}`;
}

/** The path under `cwd` when it is inside it (forward slashes), else the path as reported (forward slashes). */
export function changePath(filePath: string, cwd: string | null): string {
  return (cwd ? pathUnder(filePath, cwd) : undefined) ?? filePath.replace(/\\/g, '/');
}
