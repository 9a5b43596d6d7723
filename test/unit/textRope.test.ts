// Streamed message text is flattened as it grows; it must equal plain concatenation at every step.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { appendText } from '../../src/store/textRope';

test('appendText equals += for pieces of any size, including empty and multi-byte ones', () => {
  let expected = '';
  let actual = '';
  const pieces = ['', 'a', 'héllo ', '✓', 'x'.repeat(100), '', '€'.repeat(3), 'word '];
  for (let i = 0; i < 5000; i++) {
    const piece = pieces[(i * 7) % pieces.length]!;
    expected += piece;
    actual = appendText(actual, piece);
    if (i % 500 === 0) assert.equal(actual, expected, `after ${i} pieces`);
  }
  assert.equal(actual, expected);
  assert.equal(appendText('same', ''), 'same');
});
