// Reads a zip archive held in memory into its entries (stored and deflated members; no zip64, no encryption).
import * as zlib from 'node:zlib';
import { type ArchiveEntry, UnpackBudget } from './archiveEntry';

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const UNIX_HOST = 3;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

function endOfDirectory(archive: Buffer): number {
  const earliest = Math.max(0, archive.length - 22 - 0xffff);
  for (let at = archive.length - 22; at >= earliest; at--) if (archive.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  throw new Error('not a zip archive (no end of central directory)');
}

function memberData(archive: Buffer, offset: number, method: number, compressedSize: number, size: number, budget: UnpackBudget): Buffer {
  if (offset + 30 > archive.length || archive.readUInt32LE(offset) !== LOCAL_HEADER) throw new Error('the zip archive is damaged (bad local header)');
  const start = offset + 30 + archive.readUInt16LE(offset + 26) + archive.readUInt16LE(offset + 28);
  if (start + compressedSize > archive.length) throw new Error('the zip archive is truncated');
  const raw = archive.subarray(start, start + compressedSize);
  budget.take(size);
  const data = method === 0 ? Buffer.from(raw) : method === 8 ? zlib.inflateRawSync(raw, { maxOutputLength: Math.max(1, size) }) : undefined;
  if (!data) throw new Error(`zip compression method ${method} is not supported`);
  if (data.length !== size) throw new Error('a zip member is not the size its directory says');
  return data;
}

export function readZip(archive: Buffer, budget = new UnpackBudget()): ArchiveEntry[] {
  const end = endOfDirectory(archive);
  const count = archive.readUInt16LE(end + 10);
  let at = archive.readUInt32LE(end + 16);
  if (count === 0xffff || at === 0xffffffff) throw new Error('zip64 archives are not supported');
  const entries: ArchiveEntry[] = [];
  for (let index = 0; index < count; index++) {
    if (at + 46 > archive.length || archive.readUInt32LE(at) !== DIRECTORY_ENTRY) throw new Error('the zip archive is damaged (bad central directory)');
    const host = archive.readUInt16LE(at + 4) >> 8;
    const flags = archive.readUInt16LE(at + 8);
    const method = archive.readUInt16LE(at + 10);
    const compressedSize = archive.readUInt32LE(at + 20);
    const size = archive.readUInt32LE(at + 24);
    const nameLength = archive.readUInt16LE(at + 28);
    const skip = nameLength + archive.readUInt16LE(at + 30) + archive.readUInt16LE(at + 32);
    const unixMode = host === UNIX_HOST ? archive.readUInt32LE(at + 38) >>> 16 : 0;
    const offset = archive.readUInt32LE(at + 42);
    const path = archive.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    at += 46 + skip;
    if (flags & 1) throw new Error('encrypted zip members are not supported');
    if (compressedSize === 0xffffffff || size === 0xffffffff || offset === 0xffffffff) throw new Error('zip64 archives are not supported');
    if (path.endsWith('/')) {
      budget.take(0);
      entries.push({ path, type: 'directory' });
      continue;
    }
    const data = memberData(archive, offset, method, compressedSize, size, budget);
    const mode = unixMode & 0o7777;
    if ((unixMode & S_IFMT) === S_IFLNK) entries.push({ path, type: 'symlink', linkTarget: data.toString('utf8') });
    else entries.push({ path, type: 'file', data, ...(mode ? { mode } : {}) });
  }
  return entries;
}
