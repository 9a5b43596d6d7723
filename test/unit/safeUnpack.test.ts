// Unpacking a downloaded agent: tar.gz, tgz, zip and a bare executable land inside the target folder; a hostile
// archive (`../` paths, absolute paths, symlinks out, hard links) is refused before anything is written; the
// registry's sha256 is checked and the executable must be inside the archive.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { installBinary, installFolder } from '../../src/host/registry/binaryInstall';
import { archiveKind, unpackArchive } from '../../src/host/registry/unpackArchive';
import { readZip } from '../../src/host/registry/zipReader';
import { UnpackBudget } from '../../src/host/registry/archiveEntry';

interface Member {
  readonly name: string;
  readonly data?: string;
  readonly type?: 'file' | 'directory' | 'symlink' | 'hardlink';
  readonly link?: string;
  readonly mode?: number;
}

const TAR_TYPES = { file: '0', directory: '5', symlink: '2', hardlink: '1' } as const;

function tar(members: readonly Member[]): Buffer {
  const blocks: Buffer[] = [];
  for (const member of members) {
    const data = Buffer.from(member.data ?? '');
    const header = Buffer.alloc(512);
    header.write(member.name, 0, 100);
    header.write(`${(member.mode ?? 0o644).toString(8).padStart(7, '0')}\0`, 100);
    header.write(`${data.length.toString(8).padStart(11, '0')}\0`, 124);
    header.write(TAR_TYPES[member.type ?? 'file'], 156);
    if (member.link) header.write(member.link, 157, 100);
    header.write('ustar\0' + '00', 257);
    header.fill(0x20, 148, 156);
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  return Buffer.concat([...blocks, Buffer.alloc(1024)]);
}

/** A zip of stored (or deflated) members; symlinks as Unix zip tools write them. */
function zip(members: readonly Member[], deflate = false): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const member of members) {
    const name = Buffer.from(member.type === 'directory' ? `${member.name.replace(/\/$/, '')}/` : member.name);
    const raw = Buffer.from(member.type === 'symlink' ? member.link! : (member.data ?? ''));
    const stored = deflate ? zlib.deflateRawSync(raw) : raw;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(deflate ? 8 : 0, 8);
    local.writeUInt32LE(stored.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, stored);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE((3 << 8) | 20, 4);
    entry.writeUInt16LE(deflate ? 8 : 0, 10);
    entry.writeUInt32LE(stored.length, 20);
    entry.writeUInt32LE(raw.length, 24);
    entry.writeUInt16LE(name.length, 28);
    const mode = member.type === 'symlink' ? 0o120777 : member.type === 'directory' ? 0o040755 : 0o100000 | (member.mode ?? 0o644);
    entry.writeUInt32LE((mode << 16) >>> 0, 38);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, name);
    offset += 30 + name.length + stored.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const scratch = () => mkdtempSync(path.join(tmpdir(), 'subchats-unpack-'));
const AGENT: Member[] = [{ name: 'dist/', type: 'directory' }, { name: 'dist/agent', data: '#!/bin/sh\necho hi\n', mode: 0o755 }, { name: 'dist/lib/readme.txt', data: 'readme' }, { name: 'dist/current', type: 'symlink', link: 'lib/readme.txt' }];

test('the archive kind comes from the file name', () => {
  assert.equal(archiveKind('/a/agent.tar.gz'), 'tar.gz');
  assert.equal(archiveKind('/a/agent.TGZ?x=1'), 'tar.gz');
  assert.equal(archiveKind('/a/agent.zip'), 'zip');
  assert.equal(archiveKind('/a/agent.tar.bz2'), 'unsupported');
  assert.equal(archiveKind('/a/agent'), 'raw');
});

for (const [kind, archive] of [['tar.gz', zlib.gzipSync(tar(AGENT))], ['zip', zip(AGENT)], ['deflated zip', zip(AGENT, true)]] as const) {
  test(`a ${kind} unpacks inside the folder, a symlink inside kept`, async () => {
    const root = path.join(scratch(), 'out');
    await unpackArchive(archive, kind === 'tar.gz' ? 'a.tgz' : 'a.zip', root, 'agent');
    assert.equal(readFileSync(path.join(root, 'dist/agent'), 'utf8'), '#!/bin/sh\necho hi\n');
    assert.equal(readFileSync(path.join(root, 'dist/lib/readme.txt'), 'utf8'), 'readme');
    assert.equal(readlinkSync(path.join(root, 'dist/current')), 'lib/readme.txt');
    if (process.platform !== 'win32') assert.equal(statSync(path.join(root, 'dist/agent')).mode & 0o777, 0o755);
  });
}

const HOSTILE: readonly [string, Member[]][] = [
  ['a ../ path', [{ name: 'ok.txt', data: 'x' }, { name: '../escaped.txt', data: 'x' }]],
  ['a ../ deeper in the path', [{ name: 'a/../../escaped.txt', data: 'x' }]],
  ['an absolute path', [{ name: '/tmp/escaped.txt', data: 'x' }]],
  ['a symlink out of the folder', [{ name: 'link', type: 'symlink', link: '../../etc' }]],
  ['a symlink to an absolute path', [{ name: 'link', type: 'symlink', link: '/etc/passwd' }]],
];

for (const [what, members] of HOSTILE) {
  for (const [kind, archive, name] of [['tar.gz', zlib.gzipSync(tar(members)), 'a.tar.gz'], ['zip', zip(members), 'a.zip']] as const) {
    test(`a ${kind} with ${what} is refused and nothing is written`, async () => {
      const parent = scratch();
      const root = path.join(parent, 'out');
      await assert.rejects(unpackArchive(archive, name, root, 'agent'), /outside its folder|absolute path|symlink/);
      assert.deepEqual(readdirSync(parent), [], 'not even the target folder');
    });
  }
}

test('a tar with a hard link is refused', async () => {
  const root = path.join(scratch(), 'out');
  await assert.rejects(unpackArchive(tar([{ name: 'h', type: 'hardlink', link: 'x' }]), 'a.tar', root, 'agent'), /hard link/);
});

test('an archive that unpacks past the size bound is refused (a zip bomb stops at the bound)', () => {
  const bomb = zip([{ name: 'big', data: '0'.repeat(1_000_000) }], true);
  assert.throws(() => readZip(bomb, new UnpackBudget({ maxUnpackedBytes: 1000, maxEntries: 10 })), /more than/);
  const many = zip(Array.from({ length: 5 }, (_, i) => ({ name: `f${i}`, data: 'x' })));
  assert.throws(() => readZip(many, new UnpackBudget({ maxUnpackedBytes: 1000, maxEntries: 3 })), /more than 3 entries/);
});

test('installBinary checks the sha256, unpacks into the agent folder and returns the executable', async () => {
  const archive = zlib.gzipSync(tar(AGENT));
  const sha256 = createHash('sha256').update(archive).digest('hex');
  const agentsRoot = scratch();
  const folder = installFolder(agentsRoot, 'bin/agent', '1.0');
  assert.equal(folder, path.join(agentsRoot, 'bin-agent', '1.0'));
  const target = { archive: 'https://example.com/dl/agent.tar.gz', cmd: './dist/agent', args: [], env: {}, sha256 };
  const command = await installBinary(target, folder, { download: async () => archive });
  assert.equal(command, path.join(folder, 'dist', 'agent'));
  assert.ok(existsSync(command));
  assert.deepEqual(readdirSync(path.dirname(folder)), ['1.0'], 'no partial folder left');
  await assert.rejects(installBinary({ ...target, sha256: '0'.repeat(64) }, folder, { download: async () => archive }), /sha256 is [0-9a-f]{64}, not the 0{64}/);
  await assert.rejects(installBinary({ ...target, cmd: '../outside' }, path.join(agentsRoot, 'x'), { download: async () => archive }), /outside the archive/);
  await assert.rejects(installBinary({ ...target, cmd: 'dist/missing' }, path.join(agentsRoot, 'y'), { download: async () => archive }), /no file "dist\/missing"/);
  assert.deepEqual(readdirSync(agentsRoot).sort(), ['bin-agent'], 'failed installs leave nothing behind');
});

test('a bare executable is saved under the registry cmd name', async () => {
  const folder = path.join(scratch(), 'raw');
  const command = await installBinary({ archive: 'https://example.com/dl/agent-linux-x64', cmd: 'agent', args: [], env: {} }, folder, { download: async () => Buffer.from('ELF') });
  assert.equal(command, path.join(folder, 'agent'));
  assert.equal(readFileSync(command, 'utf8'), 'ELF');
});
