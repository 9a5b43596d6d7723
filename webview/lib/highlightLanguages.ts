// The languages the chat highlights, by highlight.js's name, and the other names a fence may give them
// (highlight.js's aliases, plus ones agents write: `shell` for a script rather than highlight.js's terminal
// session, `tsx`, `vue`). The modules themselves
// are loaded by the highlighter chunk (highlighter.ts), each when a code block first needs it. A fence naming
// no language here is not highlighted (no guessing: detection would run every language).

export const HIGHLIGHT_LANGUAGES = {
  bash: ['sh', 'zsh', 'shell', 'shellscript', 'ksh'],
  shell: ['console', 'shellsession', 'terminal'],
  c: ['h'],
  cpp: ['cc', 'cxx', 'hpp', 'hh', 'hxx'],
  csharp: ['cs'],
  css: [],
  scss: [],
  less: [],
  diff: ['patch'],
  dockerfile: ['docker'],
  go: ['golang'],
  graphql: ['gql'],
  ini: ['toml', 'cfg', 'editorconfig'],
  properties: [],
  java: [],
  javascript: ['js', 'jsx', 'mjs', 'cjs', 'node'],
  typescript: ['ts', 'tsx', 'mts', 'cts'],
  json: ['jsonc', 'json5', 'jsonl'],
  kotlin: ['kt', 'kts'],
  lua: [],
  makefile: ['make', 'mk', 'mak'],
  markdown: ['md', 'mkd', 'mdx'],
  objectivec: ['objc', 'mm', 'obj-c'],
  perl: ['pl', 'pm'],
  php: [],
  powershell: ['ps1', 'pwsh', 'ps'],
  python: ['py', 'python3', 'gyp'],
  'python-repl': ['pycon'],
  r: [],
  ruby: ['rb', 'gemspec', 'rake'],
  rust: ['rs'],
  sql: ['postgres', 'postgresql', 'mysql', 'sqlite'],
  swift: [],
  vbnet: ['vb'],
  xml: ['html', 'xhtml', 'svg', 'vue', 'plist', 'xsd', 'xsl', 'rss', 'atom'],
  yaml: ['yml'],
  dart: [],
  elixir: ['ex', 'exs'],
  haskell: ['hs'],
  scala: [],
  nginx: ['nginxconf'],
  protobuf: ['proto'],
  latex: ['tex'],
  cmake: [],
  groovy: ['gradle'],
  clojure: ['clj', 'edn'],
  erlang: ['erl'],
  ocaml: ['ml'],
  fsharp: ['fs', 'fsx'],
  julia: ['jl'],
} as const satisfies Readonly<Record<string, readonly string[]>>;

export type HighlightLanguage = keyof typeof HIGHLIGHT_LANGUAGES;

const ENTRIES = Object.entries(HIGHLIGHT_LANGUAGES) as [HighlightLanguage, readonly string[]][];

/** Names, then aliases: an alias wins over a language's own name (`shell` is a script, as agents mean it). */
const BY_ALIAS = new Map<string, HighlightLanguage>([
  ...ENTRIES.map(([name]) => [name, name] as const),
  ...ENTRIES.flatMap(([name, aliases]) => aliases.map((alias) => [alias, name] as const)),
]);

/** The language a fence's language names (case aside), if the chat highlights it. */
export function highlightLanguage(fenceLanguage: string): HighlightLanguage | undefined {
  return BY_ALIAS.get(fenceLanguage.toLowerCase());
}
