// Which colour each kind of code token (src/presentation/codeTokens.ts) takes from a colour theme. Each kind
// lists the TextMate scopes that stand for it, as a grammar names them (`entity.other.attribute-name.id.css`,
// so rules for the language's own scope apply), best first; the theme's rules are matched to them as VS Code
// matches them (a selector covers a scope and its sub-scopes; the most specific selector wins, on a tie the
// later rule; colour and font style each on their own). Then the theme's semantic token colours, when its
// TextMate rules say nothing. Pure: editorTokenColors.ts reads the theme, the webview draws the verdict.
import type { CodeTokenScope } from '../presentation/codeTokens';
import type { CodeTokenStyle, CodeTokenStyles } from '../protocol/webviewMessages';

interface ThemeScopes {
  /** TextMate scopes that stand for the kind, best first: the first the theme colours gives its colour. */
  readonly textMate: readonly string[];
  /** Semantic token types the theme may colour (`semanticTokenColors`). */
  readonly semantic?: readonly string[];
}

const THEME_SCOPES: Readonly<Record<CodeTokenScope, ThemeScopes>> = {
  keyword: { textMate: ['keyword', 'storage.type', 'storage.modifier'], semantic: ['keyword'] },
  built_in: { textMate: ['support.function', 'support.class', 'support.type'], semantic: ['function'] },
  type: { textMate: ['entity.name.type', 'support.type', 'support.class'], semantic: ['type', 'class'] },
  literal: { textMate: ['constant.language'], semantic: ['enumMember'] },
  number: { textMate: ['constant.numeric'], semantic: ['number', 'numberLiteral'] },
  operator: { textMate: ['keyword.operator'], semantic: ['operator'] },
  punctuation: { textMate: ['punctuation'] },
  property: { textMate: ['variable.other.property', 'support.variable.property', 'meta.object-literal.key'], semantic: ['property'] },
  regexp: { textMate: ['string.regexp'], semantic: ['regexp'] },
  string: { textMate: ['string'], semantic: ['string', 'stringLiteral'] },
  'char.escape': { textMate: ['constant.character.escape'] },
  subst: { textMate: ['meta.template.expression'] },
  symbol: { textMate: ['constant.other.symbol', 'constant.language.symbol'] },
  variable: { textMate: ['variable', 'entity.name.variable'], semantic: ['variable'] },
  'variable.language': { textMate: ['variable.language'], semantic: ['variable'] },
  'variable.constant': { textMate: ['variable.other.constant'], semantic: ['variable'] },
  title: { textMate: ['entity.name', 'entity.name.function'] },
  'title.class': { textMate: ['entity.name.type.class', 'entity.name.class', 'entity.name.type'], semantic: ['class', 'type'] },
  'title.class.inherited': { textMate: ['entity.other.inherited-class', 'entity.name.type'], semantic: ['class', 'type'] },
  'title.function': { textMate: ['entity.name.function'], semantic: ['function', 'method'] },
  function: { textMate: ['entity.name.function'], semantic: ['function'] },
  params: { textMate: ['variable.parameter'], semantic: ['parameter'] },
  comment: { textMate: ['comment'], semantic: ['comment'] },
  doctag: { textMate: ['storage.type.class.jsdoc', 'comment.block.documentation'] },
  meta: { textMate: ['meta.preprocessor', 'keyword.control.directive'], semantic: ['macro'] },
  section: { textMate: ['markup.heading', 'entity.name.section'] },
  tag: { textMate: ['punctuation.definition.tag'] },
  name: { textMate: ['entity.name.tag'] },
  attr: { textMate: ['entity.other.attribute-name'] },
  attribute: { textMate: ['entity.other.attribute-name'] },
  'selector-tag': { textMate: ['entity.name.tag.css', 'entity.name.tag'] },
  'selector-id': { textMate: ['entity.other.attribute-name.id.css'] },
  'selector-class': { textMate: ['entity.other.attribute-name.class.css'] },
  'selector-attr': { textMate: ['entity.other.attribute-name.css'] },
  'selector-pseudo': { textMate: ['entity.other.attribute-name.pseudo-class.css'] },
  'template-tag': { textMate: ['punctuation.definition.template-expression', 'keyword'] },
  'template-variable': { textMate: ['variable.other', 'variable'] },
  bullet: { textMate: ['punctuation.definition.list.begin.markdown', 'markup.list'] },
  code: { textMate: ['markup.inline.raw', 'markup.raw'] },
  emphasis: { textMate: ['markup.italic'] },
  strong: { textMate: ['markup.bold'] },
  link: { textMate: ['markup.underline.link'] },
  quote: { textMate: ['markup.quote'] },
  addition: { textMate: ['markup.inserted'] },
  deletion: { textMate: ['markup.deleted'] },
};

/** One `tokenColors` rule of a colour theme, as its JSON has it. */
export interface ThemeTokenRule {
  readonly scope?: unknown;
  readonly settings?: unknown;
}

/** What a colour theme says about token colours, its includes and the user's customizations merged in order. */
export interface ThemeTokenColors {
  /** TextMate rules, in order (an included theme's first, the user's `textMateRules` last). */
  readonly rules: readonly ThemeTokenRule[];
  /** `semanticTokenColors`: a semantic selector to a colour or a style. */
  readonly semantic?: Readonly<Record<string, unknown>>;
}

interface Resolved {
  foreground?: string;
  fontStyle?: string;
}

const COLOR = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const FONT_STYLES = ['italic', 'bold', 'underline', 'strikethrough'] as const;

/** The words of a font style VS Code knows, in one order ('' is an explicit "none"). */
function normalFontStyle(words: readonly string[]): string {
  return FONT_STYLES.filter((style) => words.includes(style)).join(' ');
}

function styleSettings(settings: unknown): Resolved {
  if (typeof settings !== 'object' || settings === null) return {};
  const style = settings as Record<string, unknown>;
  const resolved: Resolved = {};
  if (typeof style.foreground === 'string' && COLOR.test(style.foreground)) resolved.foreground = style.foreground.toLowerCase();
  if (typeof style.fontStyle === 'string') resolved.fontStyle = normalFontStyle(style.fontStyle.split(/\s+/));
  // Semantic token styles may say it as flags.
  else if (FONT_STYLES.some((s) => typeof style[s] === 'boolean')) resolved.fontStyle = normalFontStyle(FONT_STYLES.filter((s) => style[s] === true));
  return resolved;
}

function selectorsOf(rule: ThemeTokenRule): string[] {
  const { scope } = rule;
  const list = typeof scope === 'string' ? scope.split(',') : Array.isArray(scope) ? scope.filter((s): s is string => typeof s === 'string') : [];
  return list.map((s) => s.trim()).filter((s) => s !== '');
}

function covers(selector: string, scope: string): boolean {
  return scope === selector || scope.startsWith(`${selector}.`);
}

/**
 * How specific `selector` is for a scope with no parents, or -1 when it does not apply: a descendant selector
 * (`source.css entity.name.tag`) needs parents, and an exclusion (`keyword - keyword.operator`) must not match.
 */
function specificity(selector: string, scope: string): number {
  const [include = '', ...excluded] = selector.split(/\s+-\s+/).map((part) => part.trim());
  if (/\s/.test(include) || !covers(include, scope)) return -1;
  if (excluded.some((e) => covers(e, scope))) return -1;
  return include.split('.').length;
}

/** A scope's foreground and font style under the rules: each from the most specific rule that sets it (later wins a tie). */
function resolveScope(rules: readonly ThemeTokenRule[], scope: string): Resolved {
  let foreground: { value: string; rank: number } | undefined;
  let fontStyle: { value: string; rank: number } | undefined;
  for (const rule of rules) {
    const rank = Math.max(-1, ...selectorsOf(rule).map((selector) => specificity(selector, scope)));
    if (rank < 0) continue;
    const settings = styleSettings(rule.settings);
    if (settings.foreground !== undefined && rank >= (foreground?.rank ?? 0)) foreground = { value: settings.foreground, rank };
    if (settings.fontStyle !== undefined && rank >= (fontStyle?.rank ?? 0)) fontStyle = { value: settings.fontStyle, rank };
  }
  return { ...(foreground ? { foreground: foreground.value } : {}), ...(fontStyle ? { fontStyle: fontStyle.value } : {}) };
}

/** A semantic token type's style in `semanticTokenColors` (its plain type key only: no modifiers, no language). */
function resolveSemantic(semantic: Readonly<Record<string, unknown>> | undefined, type: string): Resolved {
  const value = semantic?.[type];
  return typeof value === 'string' ? styleSettings({ foreground: value }) : styleSettings(value);
}

function styleOf(resolved: Resolved): CodeTokenStyle {
  return { color: resolved.foreground ?? null, ...(resolved.fontStyle ? { fontStyle: resolved.fontStyle } : {}) };
}

/** Each kind's colour and font style under a theme: `color: null` where the theme leaves it the text's colour. */
export function codeTokenStyles(theme: ThemeTokenColors): CodeTokenStyles {
  const styles: Record<string, CodeTokenStyle> = {};
  for (const [scope, { textMate, semantic = [] }] of Object.entries(THEME_SCOPES) as [CodeTokenScope, ThemeScopes][]) {
    const candidates = [...textMate.map((s) => resolveScope(theme.rules, s)), ...semantic.map((type) => resolveSemantic(theme.semantic, type))];
    styles[scope] = styleOf(candidates.find((c) => c.foreground !== undefined) ?? candidates.find((c) => c.fontStyle !== undefined) ?? {});
  }
  return styles;
}

/** What `editor.tokenColorCustomizations`' shorthands colour (as VS Code maps them). */
const CUSTOMIZATION_GROUPS: Readonly<Record<string, string>> = {
  comments: 'comment, punctuation.definition.comment',
  strings: 'string, meta.embedded.assembly',
  keywords: 'keyword - keyword.operator, keyword.control, storage, storage.type',
  numbers: 'constant.numeric',
  types: 'entity.name.type, entity.name.class, support.type, support.class',
  functions: 'entity.name.function, support.function',
  variables: 'variable, entity.name.variable',
};

/**
 * The TextMate rules of an `editor.tokenColorCustomizations` value for a theme: its shorthands and
 * `textMateRules`, then those of its `[Theme Name]` block (which win).
 */
export function customizedTokenRules(customizations: unknown, themeNames: readonly string[]): ThemeTokenRule[] {
  if (typeof customizations !== 'object' || customizations === null) return [];
  const all = customizations as Record<string, unknown>;
  const own = (block: Record<string, unknown>): ThemeTokenRule[] => {
    const rules: ThemeTokenRule[] = [];
    for (const [group, scope] of Object.entries(CUSTOMIZATION_GROUPS)) {
      const value = block[group];
      if (typeof value === 'string') rules.push({ scope, settings: { foreground: value } });
      else if (typeof value === 'object' && value !== null) rules.push({ scope, settings: value });
    }
    if (Array.isArray(block.textMateRules)) rules.push(...(block.textMateRules as unknown[]).filter((r): r is ThemeTokenRule => typeof r === 'object' && r !== null));
    return rules;
  };
  const themed = themeNames.map((name) => all[`[${name}]`]).find((block) => typeof block === 'object' && block !== null) as Record<string, unknown> | undefined;
  return [...own(all), ...(themed ? own(themed) : [])];
}
