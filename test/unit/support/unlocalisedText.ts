// Finds words written straight into VS Code UI in the extension's source, with the TypeScript compiler API:
// a string or template literal (or a `+`, `?:`, `??`, `||` of them) that is handed to a user-facing API or
// set as a user-facing property without going through vscode.l10n.t or the pure layers' translator (any
// call counts as going through one: the rule is about literals). Also a translation made while a module
// loads: the pure layers' translator is configured at activation, after every module has loaded.
import ts from 'typescript';

export interface Finding {
  readonly file: string;
  readonly line: number;
  readonly text: string;
  readonly rule: string;
}

/** Properties whose text VS Code shows: quick pick items and options, input boxes, progress, dialogs, tree items. */
const SHOWN_PROPERTIES = new Set(['label', 'description', 'detail', 'title', 'placeHolder', 'placeholder', 'prompt', 'tooltip', 'validationMessage', 'saveLabel', 'openLabel']);
/** Shown when set on an object (status bar item text, a tree view's message), too generic as object literal keys. */
const SHOWN_ON_ASSIGNMENT = new Set([...SHOWN_PROPERTIES, 'text', 'message']);
/** Calls whose every literal argument is shown (the message and its buttons). */
const MESSAGE_CALLS = new Set(['showInformationMessage', 'showWarningMessage', 'showErrorMessage', 'setStatusBarMessage']);
/** Calls and constructors that show one argument, by its index. */
const SHOWN_ARGUMENT: Readonly<Record<string, number>> = {
  createWebviewPanel: 1,
  createOutputChannel: 0,
  TreeItem: 0,
  MarkdownString: 0,
  showQuickPick: 0,
};
/** The pure layers' translator (src/presentation/l10n.ts) and VS Code's. */
const TRANSLATORS = new Set(['t']);

/** `t(…)` or `vscode.l10n.t(…)`: the call that translates. */
function isTranslation(node: ts.CallExpression): boolean {
  const callee = node.expression;
  if (ts.isIdentifier(callee)) return TRANSLATORS.has(callee.text);
  return ts.isPropertyAccessExpression(callee) && callee.name.text === 't' && ts.isPropertyAccessExpression(callee.expression) && callee.expression.name.text === 'l10n';
}

/** The message a translation call looks up: its first argument when that is a literal (a bundle key can only be one). */
function messageOf(node: ts.CallExpression): string | undefined {
  const first = node.arguments[0];
  return first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first)) ? first.text : undefined;
}

/**
 * Every message a file translates, in order (what `@vscode/l10n-dev export` would list), and each translation
 * whose message is not a literal: no tool can put such a message in the bundle, so translators never see it.
 */
export function translatedMessages(file: string, source: string): { readonly messages: string[]; readonly unlisted: Finding[] } {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const messages: string[] = [];
  const unlisted: Finding[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && isTranslation(node)) {
      const message = messageOf(node);
      if (message !== undefined) messages.push(message);
      else unlisted.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, text: node.getText(sf), rule: 'message is not a literal' });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { messages, unlisted };
}

/** Words a user reads: a letter once codicons (`$(name)`) are taken out. */
function hasWords(text: string): boolean {
  return /\p{L}/u.test(text.replace(/\$\([\w~-]+\)/g, ''));
}

/** The literal texts an expression is built from directly (not through a call). */
function literalParts(node: ts.Expression): string[] {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isTemplateExpression(node)) {
    return [node.head.text, ...node.templateSpans.flatMap((span) => [...literalParts(span.expression), span.literal.text])];
  }
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) return literalParts(node.expression);
  if (ts.isConditionalExpression(node)) return [...literalParts(node.whenTrue), ...literalParts(node.whenFalse)];
  if (ts.isBinaryExpression(node) && [ts.SyntaxKind.PlusToken, ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken].includes(node.operatorToken.kind)) {
    return [...literalParts(node.left), ...literalParts(node.right)];
  }
  if (ts.isArrayLiteralExpression(node)) return node.elements.flatMap((e) => (ts.isExpression(e) ? literalParts(e) : []));
  return [];
}

function calleeName(node: ts.CallExpression | ts.NewExpression): string | undefined {
  const callee = node.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

function propertyName(name: ts.PropertyName): string | undefined {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined;
}

/** Whether a node runs while its module loads: outside every function body. */
function atModuleLoad(node: ts.Node): boolean {
  for (let p = node.parent; p; p = p.parent) {
    if (ts.isFunctionLike(p) || ts.isClassStaticBlockDeclaration(p)) return false;
  }
  return true;
}

/** Names (or name endings) of properties and variables that hold a sentence the pure layers present. */
const SENTENCE_NAME = /(?:text|label|title|reason|refusal|confirm|description|detail|message|tooltip|notice|summary|heading|hint|explanation)$/i;

/**
 * Two words of letters with a space between: a phrase a person reads, not an id (`end_turn`, `agent->client`),
 * a codicon or a single token.
 */
function isPhrase(text: string): boolean {
  return /\p{L}+[,;:.!?'’"»)]*\s+[\p{Ps}"'“«]*\p{L}/u.test(text.replace(/\$\([\w~-]+\)/g, ''));
}

const ASSIGNMENTS = new Set([ts.SyntaxKind.EqualsToken, ts.SyntaxKind.QuestionQuestionEqualsToken, ts.SyntaxKind.BarBarEqualsToken]);

/** The parameter names of the functions a file declares, by function name (`denied(reason)`: its argument is a reason). */
function localParameters(sf: ts.SourceFile): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const names = (fn: ts.SignatureDeclarationBase) => fn.parameters.map((p) => (ts.isIdentifier(p.name) ? p.name.text : ''));
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionDeclaration(node) && node.name) found.set(node.name.text, names(node));
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))) {
      found.set(node.name.text, names(node.initializer));
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/**
 * English phrases in the pure layers (src/presentation, src/store) that reach the user without t(): a string
 * or template literal of two or more words returned from a function, given to a property or variable named
 * like shown text (label, title, reason, notice…), or pushed onto a list. The host-side rule above looks at
 * VS Code calls; here the words are made far from them, so the rule looks at where a phrase goes instead.
 */
export function untranslatedPhrases(file: string, source: string): Finding[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const findings: Finding[] = [];
  const report = (node: ts.Node, rule: string, expression: ts.Expression) => {
    const parts = literalParts(expression);
    if (parts.some(isPhrase)) {
      findings.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, text: parts.join('…'), rule });
    }
  };
  const parameters = localParameters(sf);
  const visit = (node: ts.Node): void => {
    if (ts.isReturnStatement(node) && node.expression) report(node, 'returned', node.expression);
    else if (ts.isArrowFunction(node) && !ts.isBlock(node.body)) report(node.body, 'returned', node.body);
    else if (ts.isPropertyAssignment(node)) {
      const name = propertyName(node.name);
      if (name && SENTENCE_NAME.test(name)) report(node, `${name} property`, node.initializer);
    } else if (ts.isVariableDeclaration(node) && node.initializer && ts.isIdentifier(node.name) && SENTENCE_NAME.test(node.name.text)) {
      report(node, `${node.name.text} variable`, node.initializer);
    } else if (ts.isBinaryExpression(node) && ASSIGNMENTS.has(node.operatorToken.kind)) {
      const name = ts.isPropertyAccessExpression(node.left) ? node.left.name.text : ts.isIdentifier(node.left) ? node.left.text : undefined;
      if (name && SENTENCE_NAME.test(name)) report(node, `${name} assignment`, node.right);
    } else if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      const name = calleeName(node);
      const params = name === undefined ? undefined : parameters.get(name);
      (node.arguments ?? []).forEach((arg, i) => {
        if (name === 'push' || name === 'unshift') report(arg, 'pushed', arg);
        else if (params?.[i] !== undefined && SENTENCE_NAME.test(params[i])) report(arg, `${name} argument ${params[i]}`, arg);
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return findings;
}

export function unlocalisedText(file: string, source: string): Finding[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const findings: Finding[] = [];
  const report = (node: ts.Node, rule: string, expression: ts.Expression) => {
    const shown = literalParts(expression).filter(hasWords);
    if (shown.length > 0) findings.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, text: shown.join('…'), rule });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      const name = calleeName(node);
      const args = node.arguments ?? [];
      if (name && MESSAGE_CALLS.has(name)) for (const arg of args) report(arg, `${name} argument`, arg);
      const shownIndex = name === undefined ? undefined : SHOWN_ARGUMENT[name];
      if (shownIndex !== undefined && args[shownIndex]) report(args[shownIndex], `${name} argument ${shownIndex}`, args[shownIndex]);
      if (ts.isCallExpression(node) && name && TRANSLATORS.has(name) && ts.isIdentifier(node.expression) && atModuleLoad(node)) {
        findings.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, text: node.getText(sf), rule: 'translated while the module loads' });
      }
    } else if (ts.isPropertyAssignment(node)) {
      const name = propertyName(node.name);
      if (name && SHOWN_PROPERTIES.has(name)) report(node, `${name} property`, node.initializer);
      if (name === 'filters' && ts.isObjectLiteralExpression(node.initializer)) {
        for (const filter of node.initializer.properties) {
          const label = filter.name && propertyName(filter.name);
          if (label && hasWords(label)) findings.push({ file, line: sf.getLineAndCharacterOfPosition(filter.getStart(sf)).line + 1, text: label, rule: 'dialog filter name' });
        }
      }
    } else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(node.left)) {
      const name = node.left.name.text;
      if (SHOWN_ON_ASSIGNMENT.has(name)) report(node, `${name} assignment`, node.right);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return findings;
}

/** Attributes whose value a person reads or hears: a tooltip, a screen reader's name, a hint in an empty field, an image's words. */
const SHOWN_ATTRIBUTE_NAMES = new Set(['title', 'aria-label', 'aria-description', 'aria-placeholder', 'aria-roledescription', 'aria-valuetext', 'placeholder', 'alt']);
const ATTRIBUTE = /(?:^|[\s"'])([.?]?)([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/g;
/** Stands for a `${…}` binding in a template's static text: no word of its own. */
const BINDING = '\u0000';

/** Words in a piece of static template text: a letter that is not part of a character reference (`&nbsp;`). */
function hasTemplateWords(text: string): boolean {
  return /\p{L}/u.test(text.replace(/&#?\w+;/g, ''));
}

/** Where a binding sits, from the static text before it: in a tag's attribute (its name), or between tags (''). */
function bindingPlace(before: string): string | undefined {
  const inTag = before.lastIndexOf('<') > before.lastIndexOf('>');
  if (!inTag) return '';
  const attribute = /([.?@]?)([\w-]+)\s*=\s*["']?[^"'=\s]*$/.exec(before);
  return attribute && attribute[1] !== '@' ? attribute[2] : undefined;
}

/**
 * Words written straight into the chat webview's Lit templates (html`…`): text between tags, literal values
 * of the attributes a person reads (title, aria-label, placeholder, alt), and string literals a binding in one
 * of those places is made of (`${open ? 'Hide' : 'Show'}`); also `setAttribute('aria-label', 'Words')`.
 * A binding that calls something (t(…), a helper) is the translator's job where that value is made.
 */
export function untranslatedTemplateText(file: string, source: string): Finding[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const findings: Finding[] = [];
  const add = (node: ts.Node, rule: string, text: string) =>
    findings.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, text: text.trim().replace(/\s+/g, ' '), rule });
  const visit = (node: ts.Node): void => {
    if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && (node.tag.text === 'html' || node.tag.text === 'svg')) {
      const template = node.template;
      let text = ts.isNoSubstitutionTemplateLiteral(template) ? template.text : template.head.text;
      if (ts.isTemplateExpression(template)) {
        for (const span of template.templateSpans) {
          const place = bindingPlace(text.replace(/<!--[\s\S]*?-->/g, ''));
          const where = place === '' ? 'text between tags' : place !== undefined && SHOWN_ATTRIBUTE_NAMES.has(place) ? `${place} attribute` : undefined;
          if (where) for (const part of literalParts(span.expression).filter(hasTemplateWords)) add(span.expression, `${where} binding`, part);
          text += BINDING + span.literal.text;
        }
      }
      text = text.replace(/<!--[\s\S]*?-->/g, '').replace(/<(style|script)\b[\s\S]*?<\/\1>/gi, '');
      for (const match of text.matchAll(ATTRIBUTE)) {
        if (match[1] !== '' || !SHOWN_ATTRIBUTE_NAMES.has(match[2]!)) continue;
        const shown = (match[3] ?? match[4] ?? match[5] ?? '').split(BINDING).filter(hasTemplateWords);
        if (shown.length > 0) add(node, `${match[2]} attribute`, shown.map((part) => part.trim()).join('…'));
      }
      const between = text.replace(/<[^>]*>/g, BINDING).split(BINDING).filter(hasTemplateWords);
      for (const part of between) add(node, 'text between tags', part);
    } else if (ts.isCallExpression(node) && calleeName(node) === 'setAttribute' && node.arguments.length === 2) {
      const [name, value] = node.arguments;
      if (name && value && ts.isStringLiteral(name) && SHOWN_ATTRIBUTE_NAMES.has(name.text)) {
        for (const part of literalParts(value).filter(hasTemplateWords)) add(value, `setAttribute ${name.text}`, part);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return findings;
}
