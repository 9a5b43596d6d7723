// Whether two JSON-like values (plain objects, arrays, strings, numbers, booleans, null) hold the same data,
// without serialising either: what changed in a header is asked on every update, and a header of a parent with
// hundreds of children held arrays of hundreds of rows, stringified twice per update. Shared rows (the same
// object) compare at once. Object keys compare as sets, so the order they were written in does not matter.

export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let keys = 0;
  for (const key in left) {
    if (left[key] === undefined) continue;
    keys++;
    if (!sameJson(left[key], right[key])) return false;
  }
  for (const key in right) if (right[key] !== undefined) keys--;
  return keys === 0;
}
