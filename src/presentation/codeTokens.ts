// The kinds of token the chat's code highlighter draws (highlight.js names them by scopes such as `keyword` or
// `title.function`; see its docs/css-classes-reference), the class each is drawn with, and the VS Code theme
// variable each falls back to while the editor theme's own token colours are unknown. Which TextMate scopes
// of a theme colour each kind is the host's business (src/host/themeTokenColors.ts).

// Only colours that read at 4.5:1 on a code block in VS Code's default light, dark and high-contrast themes
// (checked by axe in test/component/accessibility.test.ts); numbers, booleans, types, variables and deletions
// have none that does (the class colour is 2.9:1 in Light Modern), so they keep the text colour until the
// theme's own colours arrive.
const NAME = 'var(--vscode-debugTokenExpression-name)';
const STRING = 'var(--vscode-debugTokenExpression-string)';
const FUNCTION = 'var(--vscode-symbolIcon-functionForeground)';
const COMMENT = 'var(--vscode-descriptionForeground)';

export interface CodeTokenKind {
  /** The highlighter's scope; a sub-scope of a listed one (`title.function.invoke`) takes the longest listed prefix. */
  readonly scope: string;
  /** The colour while the theme's is unknown (or cannot be read): a colour VS Code gives every webview. */
  readonly fallback?: string;
}

/** Every kind the chat colours. */
export const CODE_TOKEN_KINDS = [
  { scope: 'keyword', fallback: NAME },
  { scope: 'built_in', fallback: FUNCTION },
  { scope: 'type' },
  { scope: 'literal' },
  { scope: 'number' },
  { scope: 'operator' },
  { scope: 'punctuation' },
  { scope: 'property' },
  { scope: 'regexp', fallback: STRING },
  { scope: 'string', fallback: STRING },
  { scope: 'char.escape', fallback: STRING },
  { scope: 'subst' },
  { scope: 'symbol' },
  { scope: 'variable' },
  { scope: 'variable.language', fallback: NAME },
  { scope: 'variable.constant' },
  { scope: 'title', fallback: FUNCTION },
  { scope: 'title.class' },
  { scope: 'title.class.inherited' },
  { scope: 'title.function', fallback: FUNCTION },
  { scope: 'function', fallback: FUNCTION },
  { scope: 'params' },
  { scope: 'comment', fallback: COMMENT },
  { scope: 'doctag', fallback: NAME },
  { scope: 'meta', fallback: NAME },
  { scope: 'section', fallback: FUNCTION },
  { scope: 'tag' },
  { scope: 'name', fallback: NAME },
  { scope: 'attr' },
  { scope: 'attribute' },
  { scope: 'selector-tag', fallback: NAME },
  { scope: 'selector-id' },
  { scope: 'selector-class' },
  { scope: 'selector-attr' },
  { scope: 'selector-pseudo' },
  { scope: 'template-tag', fallback: NAME },
  { scope: 'template-variable' },
  { scope: 'bullet', fallback: NAME },
  { scope: 'code', fallback: STRING },
  { scope: 'emphasis' },
  { scope: 'strong' },
  { scope: 'link', fallback: 'var(--vscode-textLink-foreground)' },
  { scope: 'quote', fallback: COMMENT },
  { scope: 'addition', fallback: 'var(--vscode-gitDecoration-addedResourceForeground)' },
  { scope: 'deletion' },
] as const satisfies readonly CodeTokenKind[];

export type CodeTokenScope = (typeof CODE_TOKEN_KINDS)[number]['scope'];

const KINDS_BY_SCOPE = new Map<string, CodeTokenKind>(CODE_TOKEN_KINDS.map((kind) => [kind.scope, kind]));

/** The kind a highlighter scope is drawn as (`title.function.invoke` as `title.function`), if any. */
export function codeTokenKind(scope: string): CodeTokenKind | undefined {
  for (let name = scope; name !== ''; name = name.slice(0, Math.max(0, name.lastIndexOf('.')))) {
    const kind = KINDS_BY_SCOPE.get(name);
    if (kind) return kind;
  }
  return undefined;
}

/** The CSS class of a kind's spans, and the custom property its colour is read from. */
export function codeTokenCss(kind: CodeTokenKind): { readonly className: string; readonly property: string } {
  const name = kind.scope.replace(/[._]/g, '-');
  return { className: `sc-token-${name}`, property: `--sc-token-${name}` };
}
