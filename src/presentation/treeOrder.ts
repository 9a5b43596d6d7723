// Walking a session tree the way every view lists it: parents before children, siblings in order of first
// appearance, each session once (a cycle in bad input is cut, never followed).
export function preOrder<T>(startIds: readonly string[], lookup: (id: string) => T | undefined, childIdsOf: (item: T) => readonly string[]): T[] {
  const out: T[] = [];
  const seen = new Set<string>();
  const visit = (id: string): void => {
    if (seen.has(id)) return;
    seen.add(id);
    const item = lookup(id);
    if (item === undefined) return;
    out.push(item);
    for (const childId of childIdsOf(item)) visit(childId);
  };
  for (const id of startIds) visit(id);
  return out;
}
