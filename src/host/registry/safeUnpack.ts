// Writes an archive's entries under one folder and nowhere else: a path that is absolute or climbs out with `..`,
// a symlink pointing outside, a hardlink or a device refuses the whole archive before anything is written. Files
// and folders are written first, symlinks last, so no write ever goes through a link.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { ArchiveEntry } from './archiveEntry';

/** The entry's path inside `root`, or why it may not be written. */
function placeInside(root: string, entryPath: string): string {
  const name = entryPath.replace(/\\/g, '/');
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) throw new Error(`the archive has an absolute path (${JSON.stringify(entryPath)})`);
  if (name.split('/').includes('..')) throw new Error(`the archive has a path outside its folder (${JSON.stringify(entryPath)})`);
  const target = path.resolve(root, name);
  const relative = path.relative(root, target);
  if (relative.startsWith('..') || path.isAbsolute(relative)) throw new Error(`the archive has a path outside its folder (${JSON.stringify(entryPath)})`);
  return target;
}

function checkLink(root: string, at: string, entry: ArchiveEntry): void {
  if (entry.type === 'hardlink') throw new Error(`the archive has a hard link (${JSON.stringify(entry.path)})`);
  const target = entry.linkTarget ?? '';
  if (!target || path.isAbsolute(target) || /^[a-zA-Z]:|^[\\/]/.test(target)) throw new Error(`the archive has a symlink to an absolute path (${JSON.stringify(entry.path)})`);
  const resolved = path.resolve(path.dirname(at), target.replace(/\\/g, '/'));
  const relative = path.relative(root, resolved);
  if (relative.startsWith('..') || path.isAbsolute(relative)) throw new Error(`the archive has a symlink out of its folder (${JSON.stringify(entry.path)})`);
}

/** Checks every entry first, then writes into `root` (which should be a new, empty folder). */
export async function writeEntries(entries: readonly ArchiveEntry[], root: string): Promise<void> {
  const placed = entries.map((entry) => {
    const at = placeInside(root, entry.path);
    if (entry.type === 'other') throw new Error(`the archive has a special file (${JSON.stringify(entry.path)})`);
    if (entry.type === 'symlink' || entry.type === 'hardlink') checkLink(root, at, entry);
    return { entry, at };
  });
  await fs.mkdir(root, { recursive: true });
  for (const { entry, at } of placed) {
    if (entry.type === 'directory') await fs.mkdir(at, { recursive: true });
    else if (entry.type === 'file') {
      await fs.mkdir(path.dirname(at), { recursive: true });
      // `wx`: never over an existing file (a second entry of the same name), never through a link.
      await fs.writeFile(at, entry.data ?? Buffer.alloc(0), { flag: 'wx', mode: (entry.mode ?? 0o644) & 0o755 });
    }
  }
  for (const { entry, at } of placed) {
    if (entry.type !== 'symlink') continue;
    await fs.mkdir(path.dirname(at), { recursive: true });
    await fs.symlink(entry.linkTarget!, at);
  }
}
