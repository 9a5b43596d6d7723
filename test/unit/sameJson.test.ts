// Whether two header values hold the same data, as JSON would say, without serialising them (feedDelta asks it for
// every header field on every update).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sameJson } from '../../src/protocol/sameJson';

test('same data in new objects is the same; any difference in a value, a length or a key is not', () => {
  const row = { sessionId: 'c', segments: [{ start: 1, end: null, phase: 'working' }], times: { working: 0 } };
  assert.equal(sameJson(row, structuredClone(row)), true);
  assert.equal(sameJson([row, row], [row, structuredClone(row)]), true);
  assert.equal(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 }), true, 'keys in another order');
  assert.equal(sameJson({ a: 1, b: undefined }, { a: 1 }), true, 'an undefined key is no key, as in JSON');
  assert.equal(sameJson({ a: 1 }, { a: 1, b: 2 }), false);
  assert.equal(sameJson({ a: 1, b: 2 }, { a: 1 }), false);
  assert.equal(sameJson([1, 2], [1, 2, 3]), false);
  assert.equal(sameJson([1, [2]], [1, [3]]), false);
  assert.equal(sameJson({ a: [] }, { a: {} }), false, 'an array is not an object');
  assert.equal(sameJson(null, {}), false);
  assert.equal(sameJson('1', 1), false);
  assert.equal(sameJson({ times: { working: 0 } }, { times: { working: 1 } }), false);
});
