// JSON text of a wire message for the transcripts, the history and the protocol log, never throwing: an agent
// controls the nesting, and JSON.stringify recurses (a 100,000-level `_meta` overflows its stack). Such a
// message is written by an iterative writer instead, the same text JSON.stringify would write; what cannot be
// JSON at all (a cycle, a BigInt, a string past V8's limit) comes back as `unrecordable`, with the bytes seen.

export type WireJson = { readonly text: string } | { readonly text?: undefined; readonly unrecordable: string; readonly bytes: number };

interface Frame {
  readonly container: object;
  /** Own enumerable keys for an object; null for an array. */
  readonly keys: string[] | null;
  index: number;
  first: boolean;
}

/** `forceIterative` is for tests: the iterative writer on input JSON.stringify could take. */
export function wireJson(value: unknown, options: { readonly forceIterative?: boolean } = {}): WireJson {
  if (!options.forceIterative) {
    try {
      const text = JSON.stringify(value) as string | undefined;
      if (text !== undefined) return { text };
    } catch {
      // Too deep for the native writer's stack, or not JSON at all: the iterative writer tells which.
    }
  }
  return iterativeJson(value);
}

/** What JSON.stringify does to a value before writing it: toJSON, and boxed primitives unboxed. */
function prepared(value: unknown, key: string): unknown {
  if (typeof value === 'object' && value !== null) {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = (toJSON as (key: string) => unknown).call(value, key);
    if (value instanceof Number || value instanceof String || value instanceof Boolean) value = value.valueOf();
  }
  return value;
}

/** Values JSON leaves out of objects (and writes as null in arrays). */
function omitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function iterativeJson(root: unknown): WireJson {
  const parts: string[] = [];
  let bytes = 0;
  const out = (text: string) => {
    parts.push(text);
    bytes += Buffer.byteLength(text);
  };
  const ancestors = new Set<object>();
  const stack: Frame[] = [];
  /** Writes a primitive or opens a container (its frame goes on the stack). */
  const write = (value: unknown): void => {
    if (typeof value === 'object' && value !== null) {
      if (ancestors.has(value)) throw new TypeError('Converting circular structure to JSON');
      ancestors.add(value);
      const isArray = Array.isArray(value);
      out(isArray ? '[' : '{');
      stack.push({ container: value, keys: isArray ? null : Object.keys(value), index: 0, first: true });
    } else if (typeof value === 'string') out(JSON.stringify(value));
    else if (typeof value === 'number') out(Number.isFinite(value) ? String(value) : 'null');
    else if (typeof value === 'boolean') out(String(value));
    else if (value === null) out('null');
    else throw new TypeError(`Do not know how to serialize a ${typeof value}`);
  };
  try {
    const top = prepared(root, '');
    if (omitted(top)) return { unrecordable: `not JSON (${typeof top})`, bytes: 0 };
    write(top);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const { container, keys } = frame;
      const length = keys ? keys.length : (container as unknown[]).length;
      if (frame.index >= length) {
        out(keys ? '}' : ']');
        stack.pop();
        ancestors.delete(container);
        continue;
      }
      const index = frame.index++;
      const key = keys ? keys[index]! : String(index);
      const value = prepared((container as Record<string, unknown>)[key], key);
      if (keys && omitted(value)) continue;
      if (!frame.first) out(',');
      frame.first = false;
      if (keys) out(`${JSON.stringify(key)}:`);
      if (omitted(value)) out('null');
      else write(value);
    }
    return { text: parts.join('') };
  } catch (error) {
    return { unrecordable: error instanceof Error ? error.message : String(error), bytes };
  }
}
