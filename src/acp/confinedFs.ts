// File operations that cannot be redirected between the check and the use. A path checked by
// workspacePaths can be swapped for a symlink a moment later, so every operation here opens the directory
// first, checks the real path of what was actually opened, and then works through that handle
// (`/proc/self/fd/N/name` on Linux names an entry of the opened directory, whatever happens to the path).
// Elsewhere the same checks run on paths, with a smaller window left.
import { constants, existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isInsideOrEqual, resolveWorkspacePath, WorkspacePathError } from './workspacePaths';

const FD_DIR = '/proc/self/fd';
const HAS_FD_PATHS = process.platform === 'linux' && existsSync(FD_DIR);
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const DIRECTORY = constants.O_DIRECTORY ?? 0;

/** Real paths of the workspace folders (a folder may itself be reached through a link). */
export async function realFolders(folders: readonly string[]): Promise<string[]> {
  return Promise.all(folders.map((folder) => fs.realpath(folder).catch(() => path.resolve(folder))));
}

/** The real path of an open handle: the kernel's answer on Linux, `realpath` of the path elsewhere. */
async function realPathOf(handle: fs.FileHandle, openedPath: string): Promise<string> {
  return HAS_FD_PATHS ? fs.readlink(`${FD_DIR}/${handle.fd}`) : fs.realpath(openedPath);
}

function escaped(requested: string, real: string, folders: readonly string[]): WorkspacePathError {
  return new WorkspacePathError('symlink-escape', `Path "${requested}" leads to ${real}, which is outside the workspace folders (${folders.join(', ')}).`);
}

/** An opened directory whose real path was checked; `entry(name)` names a child of exactly this directory. */
export class VerifiedDirectory {
  private constructor(
    private readonly handle: fs.FileHandle,
    readonly realPath: string,
  ) {}

  /** Opens `dir` (creating missing components inside the workspace when `create`) and checks where it really is. */
  static async open(dir: string, allowed: readonly string[], requested: string, create = false): Promise<VerifiedDirectory> {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(dir, constants.O_RDONLY | DIRECTORY);
    } catch (error) {
      const parentPath = path.dirname(dir);
      if (!create || (error as NodeJS.ErrnoException).code !== 'ENOENT' || parentPath === dir) throw error;
      // Create the missing directory inside its verified parent, then open it without following a link.
      const parent = await VerifiedDirectory.open(parentPath, allowed, requested, true);
      try {
        await fs.mkdir(parent.entry(path.basename(dir))).catch((mkdirError: NodeJS.ErrnoException) => {
          if (mkdirError.code !== 'EEXIST') throw mkdirError;
        });
        handle = await fs.open(parent.entry(path.basename(dir)), constants.O_RDONLY | DIRECTORY | NOFOLLOW);
      } finally {
        await parent.close();
      }
    }
    const real = await realPathOf(handle, dir).catch(async (error: unknown) => {
      await handle.close();
      throw error;
    });
    if (!allowed.some((folder) => isInsideOrEqual(real, folder))) {
      await handle.close();
      throw escaped(requested, real, allowed);
    }
    return new VerifiedDirectory(handle, real);
  }

  /** A path for the entry `name` of this very directory (or the directory itself for ''). */
  entry(name = ''): string {
    const base = HAS_FD_PATHS ? `${FD_DIR}/${this.handle.fd}` : this.realPath;
    return name ? `${base}/${name}` : base;
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

/**
 * Writes `content` to `target` (absolute, already checked lexically) so that nothing outside `folders` is
 * touched: a verified parent directory, a temporary file in it, then a rename over the target. A target that
 * is a hard link (link count > 1) or not a regular file is refused; a final-component symlink is followed
 * once, and only to a place inside the workspace.
 */
export async function writeConfined(target: string, content: string, folders: readonly string[], followLink = true): Promise<void> {
  const allowed = await realFolders(folders);
  const dir = await VerifiedDirectory.open(path.dirname(target), allowed, target, true);
  const name = path.basename(target);
  try {
    const existing = await fs.lstat(dir.entry(name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (existing?.isSymbolicLink()) {
      if (!followLink) throw new WorkspacePathError('symlink-escape', `Path "${target}" is a symbolic link that leads to another link.`);
      const linked = path.resolve(dir.realPath, await fs.readlink(dir.entry(name)));
      if (!allowed.some((folder) => isInsideOrEqual(linked, folder))) throw escaped(target, linked, allowed);
      return await writeConfined(linked, content, folders, false);
    }
    if (existing && !existing.isFile()) throw new WorkspacePathError('not-a-file', `Path "${target}" is not a regular file.`);
    if (existing && existing.nlink > 1) {
      throw new WorkspacePathError('hard-link', `Path "${target}" is a hard link (${existing.nlink} names for one file); Subchats does not write through it.`);
    }
    const temporary = `.${name.slice(0, 100)}.subchats-${process.pid}-${Math.random().toString(36).slice(2)}.tmp`;
    const file = await fs.open(dir.entry(temporary), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, existing ? existing.mode & 0o7777 : 0o666);
    try {
      try {
        await file.writeFile(content, 'utf8');
        if (existing) await file.chmod(existing.mode & 0o7777);
        await file.datasync();
      } finally {
        await file.close();
      }
      // rename replaces the directory entry: whatever the name pointed to meanwhile is never written.
      await fs.rename(dir.entry(temporary), dir.entry(name));
    } catch (error) {
      await fs.unlink(dir.entry(temporary)).catch(() => undefined);
      throw error;
    }
  } finally {
    await dir.close();
  }
}

/**
 * Reads a regular file and checks the real path of what was opened with `allow` before returning anything
 * (a link swapped in after the decision is caught here). A file larger than `maxBytes` is not read.
 */
export async function readConfined(filePath: string, allow: (realPath: string) => boolean, maxBytes = Infinity): Promise<string> {
  const handle = await fs.open(filePath, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const real = await realPathOf(handle, filePath);
    if (!allow(real)) throw new WorkspacePathError('symlink-escape', `Path "${filePath}" changed to ${real} while it was being read; nothing was read.`);
    const stat = await handle.stat();
    if (!stat.isFile()) throw new WorkspacePathError('not-a-file', `Path "${filePath}" is not a regular file.`);
    if (stat.size > maxBytes) throw new Error(`the file is ${Math.ceil(stat.size / 1024 / 1024)} MB, more than ${Math.floor(maxBytes / 1024 / 1024)} MB`);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * A file inside the workspace folders as it is on disk now (null: it does not exist), read as `readConfined`
 * reads; throws with the reason otherwise (no folder open, outside the folders, larger than `maxBytes`).
 */
export async function readWorkspaceText(absolute: string, folders: readonly string[], maxBytes: number): Promise<string | null> {
  if (folders.length === 0) throw new Error('no folder is open, and Subchats reads files only inside the workspace folders');
  try {
    const resolved = await resolveWorkspacePath(absolute, folders);
    const real = await realFolders(folders);
    return await readConfined(resolved.path, (realPath) => real.some((folder) => isInsideOrEqual(realPath, folder)), maxBytes);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
