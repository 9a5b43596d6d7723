// Fuzzy ranking for `@` file completion: the query's characters in order, best when they fall on the
// file name, at word starts and close together. Pure, so it is tested without VS Code.
import type { FileSuggestion } from '../protocol/webviewMessages';

/** Score of `candidate` for `query` (higher is better), or undefined when it does not match. */
export function fuzzyScore(query: string, candidate: string): number | undefined {
  const q = query.toLowerCase();
  const c = candidate.toLowerCase();
  if (q === '') return 0;
  const nameStart = c.lastIndexOf('/') + 1;
  let score = 0;
  let from = 0;
  let previous = -2;
  for (const ch of q) {
    const at = c.indexOf(ch, from);
    if (at < 0) return undefined;
    if (at === previous + 1) score += 3; // consecutive
    if (at === 0 || '/._- '.includes(c[at - 1] ?? '')) score += 2; // word start
    if (at >= nameStart) score += 1; // on the file name
    previous = at;
    from = at + 1;
  }
  if (c.slice(nameStart).startsWith(q)) score += 10;
  return score - candidate.length / 100;
}

/** Folders of the given files, each once (a/b/c.ts gives a and a/b). */
function foldersOf(files: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const file of files) {
    const parts = file.split('/');
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join('/'));
  }
  return [...folders];
}

/** Open editors first (when they match), then files and folders by score. */
export function rankSuggestions(query: string, files: readonly string[], openFiles: readonly string[], limit: number): FileSuggestion[] {
  const open = new Set(openFiles);
  const candidates: FileSuggestion[] = [
    ...files.map((path): FileSuggestion => (open.has(path) ? { path, kind: 'file', open: true } : { path, kind: 'file' })),
    ...foldersOf(files).map((path): FileSuggestion => ({ path, kind: 'folder' })),
  ];
  const scored: { suggestion: FileSuggestion; score: number }[] = [];
  for (const suggestion of candidates) {
    const score = fuzzyScore(query, suggestion.path);
    if (score !== undefined) scored.push({ suggestion, score: score + (suggestion.open ? 100 : 0) });
  }
  scored.sort((a, b) => b.score - a.score || a.suggestion.path.localeCompare(b.suggestion.path));
  return scored.slice(0, limit).map((s) => s.suggestion);
}
