// Base for all subchats-* elements: light DOM, so the document's stylesheet and codicon font apply.
import { LitElement, html, type TemplateResult } from 'lit';

export abstract class SubchatsElement extends LitElement {
  protected override createRenderRoot(): HTMLElement {
    return this;
  }
}

/** A codicon; `name` may carry modifiers ("loading codicon-modifier-spin"). Decorative unless labelled. */
export function codicon(name: string, label?: string): TemplateResult {
  const classes = `codicon ${name
    .split(' ')
    .map((part) => (part.startsWith('codicon-') ? part : `codicon-${part}`))
    .join(' ')}`;
  return label
    ? html`<span class=${classes} role="img" aria-label=${label}></span>`
    : html`<span class=${classes} aria-hidden="true"></span>`;
}
