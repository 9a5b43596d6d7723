// How highlighted code looks: one class per kind of token (src/presentation/codeTokens.ts), coloured by custom
// properties that the host fills from the editor's colour theme. Until it does, or when the theme cannot be
// read, each kind takes a VS Code theme variable. The properties live in a constructable stylesheet (no
// 'unsafe-inline'); the host's values reach it only through the message guard (colours and font-style words).
import { unsafeCSS, type CSSResult } from 'lit';
import { CODE_TOKEN_KINDS, codeTokenCss, type CodeTokenKind } from '../../src/presentation';
import type { CodeTokenStyle, CodeTokenStyles } from '../../src/protocol/webviewMessages';

/** The static rules: each kind's class reads its properties, with the theme variable as fallback. */
export function codeTokenRules(): CSSResult {
  const rules = CODE_TOKEN_KINDS.map((kind: CodeTokenKind) => {
    const { className, property } = codeTokenCss(kind);
    return `.${className} { color: var(${property}, ${kind.fallback ?? 'currentcolor'}); font-style: var(${property}-font-style, normal); font-weight: var(${property}-font-weight, normal); text-decoration: var(${property}-text-decoration, none); }`;
  });
  return unsafeCSS(rules.join('\n'));
}

function declarations(property: string, style: CodeTokenStyle | undefined): string[] {
  const words = (style?.fontStyle ?? '').split(' ');
  const decorations = [words.includes('underline') ? 'underline' : '', words.includes('strikethrough') ? 'line-through' : ''].filter((d) => d !== '');
  return [
    // The theme leaves this kind the text's colour.
    `${property}: ${style?.color ?? 'currentcolor'};`,
    `${property}-font-style: ${words.includes('italic') ? 'italic' : 'normal'};`,
    `${property}-font-weight: ${words.includes('bold') ? 'bold' : 'normal'};`,
    `${property}-text-decoration: ${decorations.length > 0 ? decorations.join(' ') : 'none'};`,
  ];
}

let sheet: CSSStyleSheet | undefined;

/** Applies the theme's token styles to the document (null: back to the theme-variable fallbacks). */
export function applyCodeTokenStyles(doc: Document, tokens: CodeTokenStyles | null): void {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
  }
  const body = tokens ? CODE_TOKEN_KINDS.flatMap((kind) => declarations(codeTokenCss(kind).property, tokens[kind.scope])) : [];
  sheet.replaceSync(body.length > 0 ? `:root { ${body.join(' ')} }` : '');
}
