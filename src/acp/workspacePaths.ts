// Decides whether an agent-supplied path may be written to (or used as a terminal cwd):
// only absolute paths inside an open workspace folder, also after following symbolic links.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

export type WorkspacePathProblem =
  | 'no-workspace'
  | 'invalid'
  | 'relative'
  | 'outside'
  | 'dot-dot-escape'
  | 'symlink-escape'
  | 'workspace-root'
  | 'trailing-separator'
  | 'unc'
  | 'hard-link'
  | 'not-a-file'
  | 'system-path'
  | 'not-allowed';

export class WorkspacePathError extends Error {
  constructor(
    readonly problem: WorkspacePathProblem,
    message: string,
  ) {
    super(message);
    this.name = 'WorkspacePathError';
  }
}

export interface ResolvedWorkspacePath {
  /** The normalised absolute path as the agent named it (what the user sees, and what to write). */
  readonly path: string;
  /** The same location with every existing symbolic link resolved. */
  readonly realPath: string;
  /** The workspace folder (as configured) that contains it. */
  readonly folder: string;
}

export interface ResolveOptions {
  /** Terminal cwd may be the workspace folder itself; a file to write may not. */
  readonly allowFolderItself?: boolean;
  /** Path flavour (tests pass `path.win32` to check the Windows rules on any machine). */
  readonly pathApi?: path.PlatformPath;
}

export function isInsideOrEqual(candidate: string, folder: string, api: path.PlatformPath = path): boolean {
  const relative = api.relative(folder, candidate);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${api.sep}`) && !api.isAbsolute(relative));
}

/** `\\server\share`, `\\?\…` and `\\.\…` on Windows (checked on the normalised path: `\/evil/share` becomes one). */
function isUncOrDevicePath(normalised: string, api: path.PlatformPath): boolean {
  return api === path.win32 && normalised.startsWith('\\\\');
}

/** Resolves `requested` against the workspace folders or throws a `WorkspacePathError` with a readable reason. */
export async function resolveWorkspacePath(
  requested: unknown,
  workspaceFolders: readonly string[],
  options: ResolveOptions = {},
): Promise<ResolvedWorkspacePath> {
  if (workspaceFolders.length === 0) {
    throw new WorkspacePathError('no-workspace', 'No workspace folder is open; agents may only write inside workspace folders.');
  }
  if (typeof requested !== 'string' || requested.length === 0 || requested.includes('\0')) {
    throw new WorkspacePathError('invalid', `Invalid path ${JSON.stringify(requested)}.`);
  }
  const api = options.pathApi ?? path;
  if (!api.isAbsolute(requested)) {
    throw new WorkspacePathError('relative', `Path "${requested}" is relative; ACP paths must be absolute.`);
  }
  // `dir/` names a directory; writing it would create a file called `dir`.
  if (!options.allowFolderItself && (api === path.win32 ? /[\\/]$/ : /\/$/).test(requested)) {
    throw new WorkspacePathError('trailing-separator', `Path "${requested}" ends with a path separator; name a file, not a directory.`);
  }
  // Normalise first, then check: every test below sees the path the operating system will use.
  const normalised = api.resolve(requested);
  const folders = workspaceFolders.map((folder) => api.resolve(folder));
  const folderList = folders.join(', ');
  if (isUncOrDevicePath(normalised, api) && !folders.some((folder) => isUncOrDevicePath(folder, api) && isInsideOrEqual(normalised, folder, api))) {
    throw new WorkspacePathError('unc', `Path "${requested}" is a network or device path (${normalised}), outside the workspace folders (${folderList}).`);
  }
  const lexicalFolder = folders.find((folder) => isInsideOrEqual(normalised, folder, api));
  if (lexicalFolder === undefined) {
    const usesDotDot = requested.split(/[\\/]/).includes('..');
    throw usesDotDot
      ? new WorkspacePathError('dot-dot-escape', `Path "${requested}" escapes the workspace through ".." (it resolves to ${normalised}, outside ${folderList}).`)
      : new WorkspacePathError('outside', `Path "${requested}" is outside the workspace folders (${folderList}).`);
  }
  if (!options.allowFolderItself && normalised === lexicalFolder) {
    throw new WorkspacePathError('workspace-root', `Path "${requested}" is a workspace folder, not a file.`);
  }

  const realPath = await realPathOfNearestExisting(normalised);
  const realFolders = await Promise.all(folders.map((folder) => fs.realpath(folder).catch(() => folder)));
  const realIndex = realFolders.findIndex((folder) => isInsideOrEqual(realPath, folder));
  if (realIndex < 0) {
    throw new WorkspacePathError('symlink-escape', `Path "${requested}" leads through a symbolic link to ${realPath}, which is outside the workspace folders (${folderList}).`);
  }
  return { path: normalised, realPath, folder: workspaceFolders[folders.indexOf(lexicalFolder)] ?? lexicalFolder };
}

/** realpath of the deepest existing ancestor (or the path itself) with the missing remainder appended. */
export async function realPathOfNearestExisting(absolute: string): Promise<string> {
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = await fs.realpath(current);
      return missing.length ? path.join(real, ...missing.reverse()) : real;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      if (await isDanglingSymlink(current)) {
        // Writing through it would create its target, wherever that is.
        throw new WorkspacePathError('symlink-escape', `Path "${absolute}" goes through a dangling symbolic link (${current}).`);
      }
      const parent = path.dirname(current);
      if (parent === current) return absolute;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

async function isDanglingSymlink(candidate: string): Promise<boolean> {
  try {
    return (await fs.lstat(candidate)).isSymbolicLink();
  } catch {
    return false;
  }
}
