// The colours code tokens fall back to while the editor theme's own are unknown must read on a code block in
// each of VS Code's default themes (the variables captured from real VS Code in test/component/themes): WCAG AA,
// 4.5:1 against --vscode-textCodeBlock-background.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { CODE_TOKEN_KINDS } from '../../src/presentation/codeTokens';

interface CapturedTheme {
  readonly variables: Readonly<Record<string, string>>;
}

const themes = (JSON.parse(readFileSync(path.join(__dirname, '..', 'component', 'themes', 'webviewThemes.json'), 'utf8')) as { themes: Record<string, CapturedTheme> }).themes;

type Rgb = readonly [number, number, number];

/** `#rrggbb`, or `rgba(r, g, b, a)` drawn over `under` (as the browser paints it). */
function rgbOf(colour: string, under?: Rgb): Rgb | undefined {
  const hex = /^#([0-9a-f]{6})$/i.exec(colour)?.[1];
  if (hex) return [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as unknown as Rgb;
  const rgba = /^rgba\((\d+), (\d+), (\d+), ([\d.]+)\)$/.exec(colour);
  if (!rgba || !under) return undefined;
  const alpha = Number(rgba[4]);
  return [1, 2, 3].map((i, c) => Number(rgba[i]) * alpha + under[c]! * (1 - alpha)) as unknown as Rgb;
}

function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((v) => v / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

test('every token fallback colour reads at 4.5:1 on a code block in the light, dark and high-contrast themes', () => {
  assert.deepEqual(Object.keys(themes).sort(), ['dark', 'high-contrast', 'high-contrast-light', 'light']);
  const low: string[] = [];
  for (const [name, theme] of Object.entries(themes)) {
    const background = theme.variables['--vscode-textCodeBlock-background']!;
    const under = rgbOf(background);
    assert.ok(under, `${name}: the code block background ${background} is a plain colour`);
    for (const kind of CODE_TOKEN_KINDS) {
      if (!('fallback' in kind)) continue;
      const variable = /^var\((--vscode-[\w-]+)\)$/.exec(kind.fallback)?.[1];
      assert.ok(variable, `${kind.scope}: falls back to a VS Code theme variable`);
      const colour = theme.variables[variable] ?? '';
      const rgb = rgbOf(colour, under);
      assert.ok(rgb, `${name}: ${variable} (${colour}) is a colour`);
      const ratio = contrast(rgb, under);
      if (ratio < 4.5) low.push(`${name}: ${kind.scope} (${variable} ${colour}) ${ratio.toFixed(2)}:1 on ${background}`);
    }
  }
  assert.deepEqual(low, []);
});
