// Filtering a list the store's records share with their readers: in place, in one pass (no spread of a long list).

/** Keeps the items `keep` accepts, in order; returns how many were taken out. */
export function keepInPlace<T>(list: T[], keep: (item: T) => boolean): number {
  let at = 0;
  for (const item of list) if (keep(item)) list[at++] = item;
  const removed = list.length - at;
  list.length = at;
  return removed;
}
