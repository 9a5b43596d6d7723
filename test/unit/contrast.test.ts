// Colour contrast and the readable colour the chat draws data colours with (webview/lib/contrast.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contrastRatio, formatColor, over, parseColor, readableColor } from '../../webview/lib/contrast';

const hex = (text: string) => ({ r: parseInt(text.slice(1, 3), 16), g: parseInt(text.slice(3, 5), 16), b: parseInt(text.slice(5, 7), 16), a: 1 });

test('computed colours parse, with alpha', () => {
  assert.deepEqual(parseColor('rgb(1, 2, 3)'), { r: 1, g: 2, b: 3, a: 1 });
  assert.deepEqual(parseColor('rgba(255, 0, 0, 0.2)'), { r: 255, g: 0, b: 0, a: 0.2 });
  assert.deepEqual(parseColor('color(srgb 1 0 0.5 / 50%)'), { r: 255, g: 0, b: 127.5, a: 0.5 });
  assert.equal(parseColor('Highlight'), undefined);
});

test('contrast ratios match WCAG\'s examples', () => {
  assert.equal(contrastRatio(hex('#000000'), hex('#ffffff')).toFixed(1), '21.0');
  // The light theme's testing.iconPassed on a card (issue 22: status text at 1.8:1).
  assert.equal(contrastRatio(hex('#73c991'), hex('#f8f8f8')).toFixed(2), '1.88');
});

test('a colour too faint for its background becomes the nearest that reaches 4.5:1; one that reads stays', () => {
  for (const [color, background] of [['#73c991', '#ffffff'], ['#cd3131', '#2b2b2b'], ['#c74e39', '#1f1f1f'], ['#ff8700', '#f2f2f2']] as const) {
    const readable = readableColor(hex(color), hex(background));
    assert.ok(readable, `${color} on ${background} is replaced`);
    const ratio = contrastRatio(readable, hex(background));
    assert.ok(ratio >= 4.5 && ratio < 4.7, `${formatColor(readable)} on ${background}: ${ratio}`);
  }
  assert.equal(readableColor(hex('#005fb8'), hex('#ffffff')), undefined);
});

test('translucency counts: a faded colour and a dimmed element are judged as drawn', () => {
  const red = hex('#f14c4c');
  const black = hex('#000000');
  assert.equal(readableColor(red, black), undefined);
  // ANSI dim draws at 0.7 opacity: the red alone reads, dimmed it does not, so it is brightened.
  const dimmed = readableColor(red, black, 4.5, 0.7);
  assert.ok(dimmed && contrastRatio(over(dimmed, black, 0.7), black) >= 4.5);
});
