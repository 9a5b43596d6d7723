// Base for all subchats-* elements: light DOM, so the document's stylesheet and codicon font apply.
import { LitElement, html, type TemplateResult } from 'lit';
import { themeColorVar } from '../../src/presentation';
import { cspStyle } from '../lib/cspStyle';

export abstract class SubchatsElement extends LitElement {
  protected override createRenderRoot(): HTMLElement {
    return this;
  }
}

/**
 * The glyph of every button that stops something (a turn, a subagent, a tool call, a command): VS Code chat's
 * own stop icon, a filled square, so it reads as Stop and not as the outlined square of a "stopped" state.
 */
export const STOP_ICON = 'stop-circle';

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

/** The codicon of a presented state or tool status (src/presentation): spinning and in its theme colour. */
export function presentedIcon(presented: { readonly icon: string; readonly spin: boolean; readonly color?: string }, label?: string): TemplateResult {
  const classes = `codicon codicon-${presented.icon}${presented.spin ? ' codicon-modifier-spin' : ''}`;
  const style = cspStyle({ color: presented.color ? themeColorVar(presented.color) : undefined });
  return label
    ? html`<span class=${classes} ${style} role="img" aria-label=${label}></span>`
    : html`<span class=${classes} ${style} aria-hidden="true"></span>`;
}
