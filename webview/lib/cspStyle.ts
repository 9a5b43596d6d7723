// Inline styles through the CSSOM. Lit's styleMap writes a `style` attribute on first render, which the
// webview's CSP (no 'unsafe-inline' for styles) blocks; setting properties on element.style is allowed.
import { noChange, type ElementPart } from 'lit';
import { Directive, PartType, directive, type PartInfo } from 'lit/directive.js';

type StyleProps = Readonly<Record<string, string | undefined>>;

class CspStyleDirective extends Directive {
  private previous = new Set<string>();

  constructor(partInfo: PartInfo) {
    super(partInfo);
    if (partInfo.type !== PartType.ELEMENT) throw new Error('cspStyle() must be used on an element');
  }

  render(_props: StyleProps): typeof noChange {
    return noChange;
  }

  override update(part: ElementPart, [props]: [StyleProps]): typeof noChange {
    const style = (part.element as HTMLElement).style;
    const next = new Set<string>();
    for (const [name, value] of Object.entries(props)) {
      if (value === undefined) continue;
      next.add(name);
      style.setProperty(name, value);
    }
    for (const name of this.previous) if (!next.has(name)) style.removeProperty(name);
    this.previous = next;
    return noChange;
  }
}

/** `<span ${cspStyle({ color: 'red' })}>`: property names in CSS form (`background-color`). */
export const cspStyle = directive(CspStyleDirective);
