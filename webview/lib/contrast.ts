// Colour contrast as WCAG 2 defines it, and the nearest colour that reaches a minimum: what VS Code's terminal does
// with `terminal.integrated.minimumContrastRatio` (4.5 by default), so coloured output stays readable in any theme.
// Pure: colours in, colours out.

export interface Rgba {
  readonly r: number;
  readonly g: number;
  readonly b: number;
  /** 0–1 */
  readonly a: number;
}

/** WCAG AA for normal text. */
const MIN_TEXT_CONTRAST = 4.5;

/** A computed colour as browsers write it: `rgb(1, 2, 3)`, `rgba(1, 2, 3, 0.5)`, or `color(srgb 0.1 0.2 0.3 / 0.5)`. */
export function parseColor(text: string): Rgba | undefined {
  const rgb = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(text.trim());
  if (rgb) return { r: Number(rgb[1]), g: Number(rgb[2]), b: Number(rgb[3]), a: alpha(rgb[4]) };
  const srgb = /^color\(srgb\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)(?:\s*\/\s*([\d.]+%?))?\s*\)$/.exec(text.trim());
  if (srgb) return { r: Number(srgb[1]) * 255, g: Number(srgb[2]) * 255, b: Number(srgb[3]) * 255, a: alpha(srgb[4]) };
  return undefined;
}

function alpha(text: string | undefined): number {
  if (text === undefined) return 1;
  return text.endsWith('%') ? Number(text.slice(0, -1)) / 100 : Number(text);
}

export function formatColor({ r, g, b }: Rgba): string {
  return `rgb(${Math.round(r)}, ${Math.round(g)}, ${Math.round(b)})`;
}

/** `top` drawn over `bottom` (its own alpha times `opacity`); the result is as opaque as `bottom`. */
export function over(top: Rgba, bottom: Rgba, opacity = 1): Rgba {
  const a = top.a * opacity;
  return { r: top.r * a + bottom.r * (1 - a), g: top.g * a + bottom.g * (1 - a), b: top.b * a + bottom.b * (1 - a), a: bottom.a };
}

function luminance({ r, g, b }: Rgba): number {
  const channel = (value: number): number => {
    const c = value / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** The contrast ratio of two opaque colours, 1 to 21. */
export function contrastRatio(a: Rgba, b: Rgba): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * The colour nearest `color` (mixed towards white on a dark background, black on a light one) that, drawn with
 * `opacity` over the opaque `background`, reaches `min`; undefined when `color` already does.
 */
export function readableColor(color: Rgba, background: Rgba, min = MIN_TEXT_CONTRAST, opacity = 1): Rgba | undefined {
  const ratio = (candidate: Rgba): number => contrastRatio(over(candidate, background, opacity), background);
  if (ratio(color) >= min) return undefined;
  const target: Rgba = luminance(background) < 0.5 ? { r: 255, g: 255, b: 255, a: 1 } : { r: 0, g: 0, b: 0, a: 1 };
  const solid = { ...color, a: 1 };
  // Whole channels, as the colour is written: the ratio is checked on what will be drawn.
  const mix = (t: number): Rgba => {
    const { r, g, b } = over({ ...target, a: t }, solid);
    return { r: Math.round(r), g: Math.round(g), b: Math.round(b), a: 1 };
  };
  let low = 0;
  let high = 1;
  for (let step = 0; step < 12; step++) {
    const mid = (low + high) / 2;
    if (ratio(mix(mid)) >= min) high = mid;
    else low = mid;
  }
  return mix(high);
}
