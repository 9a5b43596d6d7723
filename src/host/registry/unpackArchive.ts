// Turns a downloaded archive into a folder: picks the reader by the file name (zip, tar.gz, tgz, tar, or a bare
// executable), undoes gzip within the unpacked-size bound, and writes the entries through safeUnpack.
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { type ArchiveEntry, UnpackBudget } from './archiveEntry';
import { writeEntries } from './safeUnpack';
import { readTar } from './tarReader';
import { readZip } from './zipReader';

export type ArchiveKind = 'zip' | 'tar.gz' | 'tar' | 'raw' | 'unsupported';

/** From the archive's URL or file name (query and fragment ignored). */
export function archiveKind(name: string): ArchiveKind {
  const bare = name.replace(/[?#].*$/, '').toLowerCase();
  if (bare.endsWith('.zip')) return 'zip';
  if (bare.endsWith('.tar.gz') || bare.endsWith('.tgz')) return 'tar.gz';
  if (bare.endsWith('.tar')) return 'tar';
  if (/\.(tar\.bz2|tbz2?|tar\.xz|txz|tar\.zst|7z|rar)$/.test(bare)) return 'unsupported';
  return 'raw';
}

function entriesOf(kind: ArchiveKind, archive: Buffer, rawName: string): ArchiveEntry[] {
  const budget = new UnpackBudget();
  switch (kind) {
    case 'zip':
      return readZip(archive, budget);
    case 'tar.gz':
      return readTar(zlib.gunzipSync(archive, { maxOutputLength: budget.remainingBytes }), budget);
    case 'tar':
      return readTar(archive, budget);
    case 'raw':
      return [{ path: rawName, type: 'file', data: archive, mode: 0o755 }];
    case 'unsupported':
      throw new Error('this archive format is not supported (zip, tar.gz, tgz and tar are)');
  }
}

/** Unpacks into `root`; a bare executable is saved there as `rawName` (the registry's `cmd`). */
export async function unpackArchive(archive: Buffer, archiveName: string, root: string, rawName: string): Promise<void> {
  await writeEntries(entriesOf(archiveKind(archiveName), archive, path.basename(rawName)), root);
}
