// Which file a code block in an answer is meant for, when it says so without doubt: its fence's info string
// names one (```ts src/a.ts, ```ts:src/a.ts, ```ts title="src/a.ts", ```src/a.ts), or its first line is a
// comment naming one (// filepath: src/a.ts, # src/a.py, <!-- file: a.html -->). Two different names, a name
// with spaces, or a bare word without an extension or folder is no file: Apply is offered only where it is
// unambiguous. The naming comment is metadata, so it is not part of what Apply writes.

interface CodeBlockFile {
  /** The path as written (relative to the session's working directory, or absolute). */
  readonly path: string;
  /** The block's text without a first line that only named the file. */
  readonly code: string;
}

/** A path-looking token: no spaces or quotes, and a folder separator or an extension. */
const PATH_TOKEN = /^(?:[A-Za-z]:)?[\w./\\@+~-]+$/;
/** The words that label a file name, in a fence's info string (`title=`) or a first-line comment (`filepath:`). */
const LABEL_WORDS = '(?:file(?:path|name)?|path|title)';
const COMMENT_LABEL = new RegExp(`^${LABEL_WORDS}\\s*[:=]\\s*`, 'i');
const INFO_LABEL = new RegExp(`(?:^|\\s)${LABEL_WORDS}\\s*=\\s*("[^"]*"|'[^']*'|\\S+)`, 'i');
const COMMENT_OPENERS = ['//', '#', '--', '/*', '<!--', ';', '%', "'"];
const COMMENT_CLOSERS = ['*/', '-->'];
const MAX_PATH = 1024;

function asPath(token: string | undefined): string | undefined {
  const value = token?.trim().replace(/^["'`]|["'`]$/g, '');
  if (!value || value.length > MAX_PATH || !PATH_TOKEN.test(value)) return undefined;
  const base = value.split(/[/\\]/).at(-1) ?? '';
  const hasFolder = /[/\\]/.test(value) && base !== '';
  const hasExtension = /^[^.]*[^.]\.[\w-]+$/.test(base) || /^\.[\w-]+$/.test(base);
  if (!hasFolder && !hasExtension) return undefined;
  if (/^\.+$/.test(base)) return undefined;
  return value;
}

/** The file the fence's info string names, after its language word (or as its only word). */
function fromInfo(info: string): string | undefined {
  const text = info.trim();
  if (text === '') return undefined;
  const labelled = INFO_LABEL.exec(text);
  if (labelled) return asPath(labelled[1]);
  const colon = /^[\w+-]+:(\S+)$/.exec(text);
  if (colon) return asPath(colon[1]);
  const words = text.split(/\s+/);
  if (words.length === 2) return asPath(words[1]);
  if (words.length === 1 && /[/\\.]/.test(words[0]!)) return asPath(words[0]);
  return undefined;
}

/** The file a first-line comment names: `// filepath: a.ts`, `# a.py`, `<!-- a.html -->`. */
function fromFirstLine(line: string): string | undefined {
  let text = line.trim();
  const opener = COMMENT_OPENERS.find((o) => text.startsWith(o));
  if (!opener) return undefined;
  text = text.slice(opener.length);
  for (const closer of COMMENT_CLOSERS) if (text.trimEnd().endsWith(closer)) text = text.trimEnd().slice(0, -closer.length);
  text = text.trim().replace(COMMENT_LABEL, '');
  return asPath(text);
}

export function codeBlockFile(info: string, code: string): CodeBlockFile | undefined {
  const firstBreak = code.indexOf('\n');
  const firstLine = firstBreak === -1 ? code : code.slice(0, firstBreak);
  const named = fromInfo(info);
  const commented = fromFirstLine(firstLine);
  if (named && commented && named !== commented) return undefined;
  const path = named ?? commented;
  if (!path) return undefined;
  return { path, code: commented ? (firstBreak === -1 ? '' : code.slice(firstBreak + 1)) : code };
}
