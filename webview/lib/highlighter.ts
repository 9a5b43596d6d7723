// The code highlighter: highlight.js's core, built apart from the webview bundle (dist/webview-chunks), which
// the chat loads when the first code block needs it (codeHighlighting.ts); each language is a chunk of its
// own, loaded in turn. Tokens become DOM directly (an emitter of our own, never an HTML string): spans with a
// class per kind of token around the code's own text, so no agent text is ever parsed as markup.
import type { Emitter, LanguageFn } from 'highlight.js';
import hljs from 'highlight.js/lib/core';
import type { HighlightLanguage } from './highlightLanguages';

const LANGUAGE_MODULES: Readonly<Record<HighlightLanguage, () => Promise<{ readonly default: LanguageFn }>>> = {
  bash: () => import('highlight.js/lib/languages/bash'),
  shell: () => import('highlight.js/lib/languages/shell'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  csharp: () => import('highlight.js/lib/languages/csharp'),
  css: () => import('highlight.js/lib/languages/css'),
  scss: () => import('highlight.js/lib/languages/scss'),
  less: () => import('highlight.js/lib/languages/less'),
  diff: () => import('highlight.js/lib/languages/diff'),
  dockerfile: () => import('highlight.js/lib/languages/dockerfile'),
  go: () => import('highlight.js/lib/languages/go'),
  graphql: () => import('highlight.js/lib/languages/graphql'),
  ini: () => import('highlight.js/lib/languages/ini'),
  properties: () => import('highlight.js/lib/languages/properties'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  json: () => import('highlight.js/lib/languages/json'),
  kotlin: () => import('highlight.js/lib/languages/kotlin'),
  lua: () => import('highlight.js/lib/languages/lua'),
  makefile: () => import('highlight.js/lib/languages/makefile'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  objectivec: () => import('highlight.js/lib/languages/objectivec'),
  perl: () => import('highlight.js/lib/languages/perl'),
  php: () => import('highlight.js/lib/languages/php'),
  powershell: () => import('highlight.js/lib/languages/powershell'),
  python: () => import('highlight.js/lib/languages/python'),
  'python-repl': () => import('highlight.js/lib/languages/python-repl'),
  r: () => import('highlight.js/lib/languages/r'),
  ruby: () => import('highlight.js/lib/languages/ruby'),
  rust: () => import('highlight.js/lib/languages/rust'),
  sql: () => import('highlight.js/lib/languages/sql'),
  swift: () => import('highlight.js/lib/languages/swift'),
  vbnet: () => import('highlight.js/lib/languages/vbnet'),
  xml: () => import('highlight.js/lib/languages/xml'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
  dart: () => import('highlight.js/lib/languages/dart'),
  elixir: () => import('highlight.js/lib/languages/elixir'),
  haskell: () => import('highlight.js/lib/languages/haskell'),
  scala: () => import('highlight.js/lib/languages/scala'),
  nginx: () => import('highlight.js/lib/languages/nginx'),
  protobuf: () => import('highlight.js/lib/languages/protobuf'),
  latex: () => import('highlight.js/lib/languages/latex'),
  cmake: () => import('highlight.js/lib/languages/cmake'),
  groovy: () => import('highlight.js/lib/languages/groovy'),
  clojure: () => import('highlight.js/lib/languages/clojure'),
  erlang: () => import('highlight.js/lib/languages/erlang'),
  ocaml: () => import('highlight.js/lib/languages/ocaml'),
  fsharp: () => import('highlight.js/lib/languages/fsharp'),
  julia: () => import('highlight.js/lib/languages/julia'),
};

/** The class of a highlighter scope's span, or undefined to draw it as the text around it. */
type ClassOf = (scope: string) => string | undefined;

let classOf: ClassOf = () => undefined;

class DomEmitter implements Emitter {
  readonly root = document.createDocumentFragment();
  /** Where text goes: the innermost open span (or the root); a scope without a class adds no span. */
  private readonly open: (DocumentFragment | HTMLElement)[] = [this.root];

  private get top(): DocumentFragment | HTMLElement {
    return this.open[this.open.length - 1] ?? this.root;
  }

  addText(text: string): void {
    if (text !== '') this.top.append(text);
  }

  startScope(scope: string): void {
    const className = classOf(scope);
    if (className === undefined) {
      this.open.push(this.top);
      return;
    }
    const span = document.createElement('span');
    span.className = className;
    this.top.append(span);
    this.open.push(span);
  }

  endScope(): void {
    if (this.open.length > 1) this.open.pop();
  }

  /** The core also opens and closes a mode's scope by these names (its token tree's), beside the Emitter ones. */
  openNode(scope: string): void {
    this.startScope(scope);
  }

  closeNode(): void {
    this.endScope();
  }

  /** A language inside another (CSS in HTML): its tokens go where it stands. */
  __addSublanguage(emitter: DomEmitter): void {
    this.top.append(emitter.root);
  }

  finalize(): void {
    this.open.length = 1;
  }

  toHTML(): string {
    return '';
  }
}

hljs.configure({ __emitter: DomEmitter });

/** Loads and registers a language (once; a second call finds it registered). */
export async function loadLanguage(name: HighlightLanguage): Promise<void> {
  if (hljs.getLanguage(name)) return;
  const module = await LANGUAGE_MODULES[name]();
  if (!hljs.getLanguage(name)) hljs.registerLanguage(name, module.default);
}

/** `code` as highlighted DOM in a registered language; its text is exactly `code`. */
export function highlight(code: string, language: HighlightLanguage, classes: ClassOf): DocumentFragment {
  classOf = classes;
  try {
    return (hljs.highlight(code, { language, ignoreIllegals: true })._emitter as DomEmitter).root;
  } finally {
    classOf = () => undefined;
  }
}
