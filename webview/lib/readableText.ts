// Text whose colour carries data (a terminal's ANSI colours, a diff's + and − in the theme's git colours) is
// kept at 4.5:1 against what it is drawn on, as VS Code's terminal keeps its output: such a colour comes from
// the agent or from a theme colour meant for icons, and can be unreadable in another theme. A colour that is
// too faint is replaced, through a custom property (the CSP allows CSSOM writes), by the nearest that reads.
import { formatColor, over, parseColor, readableColor, type Rgba } from './contrast';

/** The elements whose text colour carries data. */
const TINTED = '.sc-terminal span, .sc-added, .sc-removed, .sc-diff-line[data-op]';
/** Set on an element whose colour is replaced; the stylesheet then draws it in `--sc-readable`. */
const REPLACED = 'data-readable';
const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };

/** Checks the tinted text in `root` (an element and what it holds) against what it is drawn on now. */
export function keepReadable(root: ParentNode): void {
  const elements = [...root.querySelectorAll<HTMLElement>(TINTED)];
  if (root instanceof HTMLElement && root.matches(TINTED)) elements.push(root);
  if (elements.length === 0) return;
  // Clear all, then read all, then write all: one style recalculation per pass, not one per element.
  for (const element of elements) element.removeAttribute(REPLACED);
  const backgrounds = new Map<Element, Rgba>();
  const replacements = elements.map((element) => {
    const style = getComputedStyle(element);
    const color = parseColor(style.color);
    if (!color) return undefined;
    return readableColor(color, backgroundOf(element, backgrounds), undefined, Number(style.opacity));
  });
  elements.forEach((element, index) => {
    const replacement = replacements[index];
    if (!replacement) return;
    element.style.setProperty('--sc-readable', formatColor(replacement));
    element.setAttribute(REPLACED, '');
  });
}

/** The opaque colour behind an element's text: its own background and its ancestors', composed. */
function backgroundOf(element: Element, cache: Map<Element, Rgba>): Rgba {
  const cached = cache.get(element);
  if (cached) return cached;
  const own = parseColor(getComputedStyle(element).backgroundColor);
  const parent = element.parentElement;
  let background: Rgba;
  if (own && own.a >= 1) background = own;
  else {
    const below = parent ? backgroundOf(parent, cache) : WHITE;
    background = own && own.a > 0 ? over(own, below) : below;
  }
  cache.set(element, background);
  return background;
}

/**
 * Checks all tinted text again whenever VS Code changes the theme: it rewrites the variables on the root
 * element's style and the theme classes on the body.
 */
export function keepReadableAcrossThemes(doc: Document): void {
  const observer = new MutationObserver(() => keepReadable(doc));
  observer.observe(doc.documentElement, { attributes: true, attributeFilter: ['style'] });
  observer.observe(doc.body, { attributes: true, attributeFilter: ['class'] });
}
