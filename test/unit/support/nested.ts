// A value nested `depth` levels deep ({a: {a: … 'bottom'}}), as a hostile agent sends in _meta or rawInput.
export function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}
