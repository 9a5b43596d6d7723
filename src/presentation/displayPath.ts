// How the chat shows a path it got from an agent or the host (a tool call's location, a diff, a Changes row, a
// chip, a file URI, a path in agent text): inside a workspace folder relative to it (with the folder's name when
// several are open, as VS Code's asRelativePath writes it), under the home folder as `~/…`, elsewhere the
// absolute path shortened; `file://` URIs decoded. The full path is for the tooltip, and `target` is what the
// host's resolver gets to open (it checks the path again: this only decides the words). Pure: POSIX and Windows
// paths are told apart by their shape, not by the machine this runs on.
import type { WorkspaceRoots } from '../protocol/webviewMessages';
import { plainText } from './plainText';

/** A path as one line of visible text (a line break in a file name shows as a space). */
function visible(text: string): string {
  return plainText(text).replace(/\n/g, ' ');
}

interface DisplayedPath {
  /** What the chat shows: `src/a.ts:12`, `~/notes/a.md`, `/usr/…/lib/a.h`, or the text as sent when it is no path. */
  readonly text: string;
  /** The full path (or the text as sent), for the tooltip. */
  readonly tooltip: string;
  /** The path to ask the host to open; absent when it names no local file (a web URI, a network path, a broken escape). */
  readonly target?: string;
  /** The first line the reference points at, when it names one. */
  readonly line?: number;
}

/** Lines a reference names: from the caller, or a URI's `#L3`, `#L3:5`, `#L3-5`, `#L3-L5`. */
interface Lines {
  readonly start: number;
  readonly end?: number;
}

/** Absolute paths outside the workspace with more folders than this show their first and last ones only. */
const MAX_OUTSIDE_SEGMENTS = 5;
const KEPT_TAIL_SEGMENTS = 3;

type Flavour = 'posix' | 'windows';

interface AbsolutePath {
  readonly flavour: Flavour;
  /** `/`, `C:\` or `\\server\share\`. */
  readonly root: string;
  readonly segments: readonly string[];
}

const NO_ROOTS: WorkspaceRoots = { folders: [] };

/** How the chat shows `raw`; `line` (and `endLine`, for a range) when the caller knows them, else a URI's fragment. */
export function displayPath(raw: string, roots: WorkspaceRoots = NO_ROOTS, line?: number, endLine?: number): DisplayedPath {
  const reference = parseReference(raw);
  if (reference.kind === 'other') return { text: visible(raw), tooltip: visible(raw) };
  const lines = line !== undefined && line > 0 ? { start: line, ...(endLine !== undefined && endLine > line ? { end: endLine } : {}) } : reference.lines;
  const suffix = lineSuffix(lines);
  const withLine = lines ? { line: lines.start } : {};
  if (reference.kind === 'relative') {
    const text = visible(`${tidyRelative(reference.path)}${suffix}`);
    return { text, tooltip: text, target: reference.path, ...withLine };
  }
  const absolute = reference.path;
  const full = visible(`${format(absolute)}${suffix}`);
  const shown = visible(`${shortText(absolute, roots)}${suffix}`);
  // A network path is shown, never opened from the chat (the host refuses it too).
  const openable = !isNetwork(absolute);
  return { text: shown, tooltip: full, ...(openable ? { target: format(absolute), ...withLine } : {}) };
}

/** Whether `raw` names a local file by absolute path or file URI (a resource link the chat opens in the editor). */
export function isLocalFile(raw: string): boolean {
  const reference = parseReference(raw);
  return reference.kind === 'absolute' && !isNetwork(reference.path);
}

/**
 * The workspace-relative form of a path or file URI inside a workspace folder (forward slashes, the folder's
 * name first when several are open), or undefined when it is outside them all.
 */
function workspaceRelativePath(raw: string, roots: WorkspaceRoots): string | undefined {
  const reference = parseReference(raw);
  return reference.kind === 'absolute' ? relativeToFolders(reference.path, roots) : undefined;
}

/** The path under `base` (forward slashes) when it is inside it, else undefined. */
export function pathUnder(raw: string, base: string): string | undefined {
  const absolute = parseAbsolute(raw);
  const folder = parseAbsolute(base);
  if (!absolute || !folder) return undefined;
  const rest = segmentsUnder(absolute, folder);
  return rest && rest.length > 0 ? rest.join('/') : undefined;
}

/**
 * The absolute path of a workspace-relative path as the prompt box holds it (`src/a.ts`, or `folder/src/a.ts`
 * with several folders open), or undefined without a workspace. The host resolves it again before use.
 */
export function workspaceFile(relative: string, roots: WorkspaceRoots): string | undefined {
  const [head, ...rest] = relative.split(/[\\/]/);
  const named = roots.folders.length > 1 ? roots.folders.find((folder) => folder.name === head) : undefined;
  const folder = named ?? roots.folders[0];
  const base = folder && parseAbsolute(folder.path);
  if (!base) return undefined;
  const parts = named ? rest : [head ?? '', ...rest];
  return format(normalise(base.flavour, base.root, [...base.segments, ...parts]));
}

/**
 * Agent text (a tool call's title) with every absolute path or file URI inside a workspace folder written
 * relative to it; other words, and paths outside the workspace, stay as they are.
 */
export function workspacePathsInText(text: string, roots: WorkspaceRoots): string {
  if (roots.folders.length === 0) return text;
  return text.replace(PATH_IN_TEXT, (token: string) => {
    const trail = /[.,;:!?)\]]+$/.exec(token)?.[0] ?? '';
    const candidate = token.slice(0, token.length - trail.length);
    const relative = workspaceRelativePath(candidate, roots);
    return relative !== undefined ? `${relative}${trail}` : token;
  });
}

/**
 * The file a piece of agent text names on its own (an inline code span): a file URI, or an absolute path inside
 * a workspace folder or the home folder, with an optional `:line` or `:line:column`. Other absolute-looking text
 * (`/api/users`, `/usr/bin/env node`) is left as text.
 */
export function fileReference(text: string, roots: WorkspaceRoots): { readonly path: string; readonly line?: number } | undefined {
  // `path:12`, `path:12:3` or (in a link) `path#L12`.
  const match = /^(.+?)(?::(\d{1,7})(?::\d{1,7})?|#L(\d{1,7})(?:[-:]L?\d{1,7})?)?$/.exec(text.trim());
  if (!match || /\s/.test(match[1]!)) return undefined;
  const [, path, colonLine, fragmentLine] = match;
  const line = colonLine ?? fragmentLine;
  const withLine = line !== undefined && Number(line) > 0 ? { line: Number(line) } : {};
  if (/^file:\/\//i.test(path!)) return parseReference(path!).kind === 'absolute' ? { path: path!, ...withLine } : undefined;
  const absolute = parseAbsolute(path!);
  if (!absolute || isNetwork(absolute)) return undefined;
  const home = roots.home !== undefined ? parseAbsolute(roots.home) : undefined;
  const known = relativeToFolders(absolute, roots) !== undefined || (home !== undefined && segmentsUnder(absolute, home) !== undefined);
  return known ? { path: path!, ...withLine } : undefined;
}

/** A POSIX or Windows absolute path or a file URI, as one word of text (quotes and backticks end it). */
const PATH_IN_TEXT = /(?:file:\/\/[^\s`'"<>]+|(?<![\w.~/\\])(?:[A-Za-z]:[\\/]|\/)[^\s`'"<>]+)/g;

type Reference =
  | { readonly kind: 'absolute'; readonly path: AbsolutePath; readonly lines?: Lines }
  | { readonly kind: 'relative'; readonly path: string; readonly lines?: Lines }
  | { readonly kind: 'other' };

function parseReference(raw: string): Reference {
  if (/^file:/i.test(raw)) return parseFileUri(raw);
  // Another scheme (`https:`, `untitled:`): not a path. A drive letter is one letter before the colon.
  if (/^[a-zA-Z][\w+.-]+:/.test(raw)) return { kind: 'other' };
  const absolute = parseAbsolute(raw);
  if (absolute) return { kind: 'absolute', path: absolute };
  return raw.trim() === '' || raw.includes('\0') ? { kind: 'other' } : { kind: 'relative', path: raw };
}

function parseFileUri(uri: string): Reference {
  const match = /^file:\/\/([^/?#]*)([^?#]*)(?:\?[^#]*)?(?:#(.*))?$/i.exec(uri);
  if (!match) return { kind: 'other' };
  const [, authority = '', encodedPath = '', fragment] = match;
  let decoded: string;
  try {
    decoded = decodeURIComponent(encodedPath);
  } catch {
    return { kind: 'other' }; // a broken escape: nothing sensible to open
  }
  if (decoded.includes('\0')) return { kind: 'other' };
  const host = decodeSafely(authority);
  // `file:///c:/x` names a drive; `file://server/share/x` a network path.
  const path = host && host.toLowerCase() !== 'localhost' ? `//${host}${decoded}` : /^\/[a-zA-Z]:([\\/]|$)/.test(decoded) ? decoded.slice(1) : decoded;
  const absolute = parseAbsolute(path);
  if (!absolute) return { kind: 'other' };
  const lines = fragment !== undefined ? fragmentLines(fragment) : undefined;
  return { kind: 'absolute', path: absolute, ...(lines ? { lines } : {}) };
}

function decodeSafely(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** `L3`, `L3:5`, `L3-5`, `L3-L5` (a `,col` after a line is dropped). */
function fragmentLines(fragment: string): Lines | undefined {
  const match = /^L(\d{1,7})(?:,\d+)?(?:[-:]L?(\d{1,7})(?:,\d+)?)?$/.exec(fragment);
  if (!match) return undefined;
  const start = Number(match[1]);
  const end = match[2] !== undefined ? Number(match[2]) : undefined;
  if (start < 1) return undefined;
  return end !== undefined && end > start ? { start, end } : { start };
}

function lineSuffix(lines: Lines | undefined): string {
  if (!lines) return '';
  return lines.end !== undefined ? `:${lines.start}-${lines.end}` : `:${lines.start}`;
}

/** An absolute POSIX path, Windows drive path or UNC path, with `.` and `..` resolved; undefined for anything else. */
function parseAbsolute(raw: string): AbsolutePath | undefined {
  if (raw.includes('\0')) return undefined;
  const drive = /^([a-zA-Z]):[\\/]/.exec(raw);
  if (drive) return normalise('windows', `${drive[1]!.toUpperCase()}:\\`, raw.slice(3).split(/[\\/]/));
  const unc = /^[\\/]{2}([^\\/]+)[\\/]+([^\\/]+)(?:[\\/]|$)/.exec(raw);
  if (unc && (raw.startsWith('\\\\') || raw.startsWith('//'))) {
    const flavour: Flavour = raw.startsWith('\\') ? 'windows' : 'posix';
    const sep = flavour === 'windows' ? '\\' : '/';
    return normalise(flavour, `${sep}${sep}${unc[1]}${sep}${unc[2]}${sep}`, raw.slice(unc[0].length).split(/[\\/]/));
  }
  if (raw.startsWith('/')) return normalise('posix', '/', raw.slice(1).split('/'));
  return undefined;
}

/** The segments with `.`, `..` and empty ones resolved; `..` never climbs above the root. */
function normalise(flavour: Flavour, root: string, parts: readonly string[]): AbsolutePath {
  const segments: string[] = [];
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part === '..') segments.pop();
    else segments.push(part);
  }
  return { flavour, root, segments };
}

function isNetwork(path: AbsolutePath): boolean {
  return path.root.length > 3 && /^[\\/]{2}/.test(path.root);
}

function format(path: AbsolutePath): string {
  return path.root + path.segments.join(path.flavour === 'windows' ? '\\' : '/');
}

/** Windows paths compare without case, POSIX paths exactly. */
function sameSegment(flavour: Flavour, a: string, b: string): boolean {
  return flavour === 'windows' ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/** The segments of `path` below `folder`, or undefined when it is not inside it (or is of another flavour). */
function segmentsUnder(path: AbsolutePath, folder: AbsolutePath): readonly string[] | undefined {
  if (path.flavour !== folder.flavour || !sameSegment(path.flavour, path.root, folder.root)) return undefined;
  if (path.segments.length < folder.segments.length) return undefined;
  for (let i = 0; i < folder.segments.length; i++) {
    if (!sameSegment(path.flavour, path.segments[i]!, folder.segments[i]!)) return undefined;
  }
  return path.segments.slice(folder.segments.length);
}

function relativeToFolders(path: AbsolutePath, roots: WorkspaceRoots): string | undefined {
  // The innermost folder wins (a folder nested in another).
  let best: { name: string; rest: readonly string[]; depth: number } | undefined;
  for (const folder of roots.folders) {
    const base = parseAbsolute(folder.path);
    const rest = base && segmentsUnder(path, base);
    if (rest && (!best || base.segments.length > best.depth)) best = { name: folder.name, rest, depth: base.segments.length };
  }
  if (!best) return undefined;
  if (roots.folders.length > 1) return [best.name, ...best.rest].join('/');
  return best.rest.length > 0 ? best.rest.join('/') : best.name;
}

function shortText(path: AbsolutePath, roots: WorkspaceRoots): string {
  const relative = relativeToFolders(path, roots);
  if (relative !== undefined) return relative;
  const sep = path.flavour === 'windows' ? '\\' : '/';
  const home = roots.home !== undefined ? parseAbsolute(roots.home) : undefined;
  const underHome = home && home.segments.length > 0 ? segmentsUnder(path, home) : undefined;
  if (underHome) return shortened(underHome.length > 0 ? `~${sep}` : '~', underHome, sep);
  return shortened(path.root, path.segments, sep);
}

/** `prefix` and the segments; a long path keeps its first folder and its last ones around an ellipsis. */
function shortened(prefix: string, segments: readonly string[], sep: string): string {
  if (segments.length <= MAX_OUTSIDE_SEGMENTS) return prefix + segments.join(sep);
  return prefix + [segments[0], '…', ...segments.slice(-KEPT_TAIL_SEGMENTS)].join(sep);
}

/** A relative path as the agent wrote it, with forward slashes and without `./` steps or doubled separators. */
function tidyRelative(path: string): string {
  return path.split(/[\\/]+/).filter((part) => part !== '.' && part !== '').join('/') || path;
}
