// Reads a tar archive (ustar, pax and GNU long names) held in memory into its entries; gzip is undone by the caller.
import { type ArchiveEntry, UnpackBudget } from './archiveEntry';

const BLOCK = 512;

function field(header: Buffer, start: number, length: number): string {
  const raw = header.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? raw.length : end).toString('utf8');
}

function octal(header: Buffer, start: number, length: number, what: string): number {
  if (header[start]! & 0x80) throw new Error(`tar ${what} in base-256 is not supported`);
  const text = field(header, start, length).trim();
  const value = text ? parseInt(text, 8) : 0;
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`tar ${what} is not a number`);
  return value;
}

/** `len key=value\n` records of a pax extended header. */
function paxRecords(data: Buffer): Record<string, string> {
  const records: Record<string, string> = {};
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    const length = space === -1 ? NaN : parseInt(data.subarray(at, space).toString('utf8'), 10);
    if (!(length > 0) || at + length > data.length) break;
    const record = data.subarray(space + 1, at + length - 1).toString('utf8');
    const equals = record.indexOf('=');
    if (equals > 0) records[record.slice(0, equals)] = record.slice(equals + 1);
    at += length;
  }
  return records;
}

const TYPES: Readonly<Record<string, ArchiveEntry['type']>> = { '0': 'file', '\0': 'file', '': 'file', '7': 'file', '5': 'directory', '2': 'symlink', '1': 'hardlink' };

export function readTar(archive: Buffer, budget = new UnpackBudget()): ArchiveEntry[] {
  const entries: ArchiveEntry[] = [];
  let next: { path?: string; linkTarget?: string } = {};
  for (let at = 0; at + BLOCK <= archive.length; ) {
    const header = archive.subarray(at, at + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const size = octal(header, 124, 12, 'size');
    const dataStart = at + BLOCK;
    if (dataStart + size > archive.length) throw new Error('the tar archive is truncated');
    const data = archive.subarray(dataStart, dataStart + size);
    at = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    const flag = String.fromCharCode(header[156]!).replace('\0', '') || '0';
    if (flag === 'x') {
      const pax = paxRecords(data);
      next = { ...next, ...(pax['path'] ? { path: pax['path'] } : {}), ...(pax['linkpath'] ? { linkTarget: pax['linkpath'] } : {}) };
      continue;
    }
    if (flag === 'L' || flag === 'K') {
      const text = field(data, 0, data.length);
      next = flag === 'L' ? { ...next, path: text } : { ...next, linkTarget: text };
      continue;
    }
    if (flag === 'g') continue;
    const prefix = field(header, 257, 6).startsWith('ustar') ? field(header, 345, 155) : '';
    const name = next.path ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    const type = TYPES[flag] ?? 'other';
    budget.take(type === 'file' ? size : 0);
    entries.push({
      path: name,
      type,
      mode: octal(header, 100, 8, 'mode'),
      ...(type === 'file' ? { data: Buffer.from(data) } : {}),
      ...(type === 'symlink' || type === 'hardlink' ? { linkTarget: next.linkTarget ?? field(header, 157, 100) } : {}),
    });
    next = {};
  }
  return entries;
}
