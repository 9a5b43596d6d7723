// Writes and terminal cwds stay in the workspace while a folder on the way is swapped for a symlink
// (issue 14 item 2): the check and the use must be the same opened directory.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fs, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, it } from 'node:test';
import { makeWorkspace, resultsOf, script, startFake, type FakeSession } from '../fixtures/fake-agents/harness';

const FLIPPER = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'flipper', 'flipFolder.mjs');
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function start(overrides: Parameters<typeof startFake>[1] = {}): Promise<{ session: FakeSession; outside: string }> {
  const session = await startFake('normal', overrides);
  const outside = makeWorkspace();
  cleanup.push(() => session.dispose(), () => fs.rm(outside, { recursive: true, force: true }));
  await session.connection.newSession(session.workspace);
  return { session, outside };
}

/** Runs the flipper on <workspace>/d while `work` runs; returns how often it flipped. */
async function whileFlipping(workspace: string, outside: string, work: () => Promise<void>): Promise<number> {
  const stopFile = path.join(workspace, '.stop-flipping');
  const flipper = spawn(process.execPath, [FLIPPER, workspace, 'd', outside, stopFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  let flips = '';
  flipper.stdout.on('data', (chunk: Buffer) => (flips += chunk.toString()));
  const done = new Promise<void>((resolve) => flipper.once('close', () => resolve()));
  await new Promise((resolve) => setTimeout(resolve, 50));
  try {
    await work();
  } finally {
    writeFileSync(stopFile, '');
    await done;
  }
  return Number(flips);
}

describe('writes under a folder that flips between a directory and a symlink', { timeout: 120_000 }, () => {
  it('never lands outside the workspace (300 writes)', async () => {
    const { session, outside } = await start();
    const attempts = 300;
    let written = 0;
    const flips = await whileFlipping(session.workspace, outside, async () => {
      const steps = Array.from({ length: attempts }, (_, i) => ({ request: 'fs/write_text_file', params: { sessionId: 'sess-1', path: path.join(session.workspace, 'd', `f${i}.txt`), content: `w${i}` } }));
      const results = resultsOf(await session.connection.prompt('sess-1', script(steps)));
      written = results.filter((r) => r.result).length;
    });
    const outsideFiles = await fs.readdir(outside);
    console.log(`write race: ${attempts} writes attempted, ${written} accepted, ${flips} flips, ${outsideFiles.length} outside`);
    assert.ok(flips > 0, 'the flipper ran');
    assert.deepEqual(outsideFiles, []);
  });

  it('never starts a terminal outside the workspace (200 terminals)', async () => {
    const { session, outside } = await start({ terminalPolicy: () => 'allow' });
    const attempts = 200;
    const cwds: string[] = [];
    const flips = await whileFlipping(session.workspace, outside, async () => {
      const steps = Array.from({ length: attempts }, () => ({
        request: 'terminal/create',
        params: { sessionId: 'sess-1', command: 'pwd', args: ['-P'], cwd: path.join(session.workspace, 'd') },
      }));
      const results = resultsOf(await session.connection.prompt('sess-1', script(steps)));
      for (const result of results) {
        const terminalId = (result.result as { terminalId?: string } | undefined)?.terminalId;
        if (!terminalId) continue;
        await session.connection.terminals.waitForExit(terminalId);
        cwds.push(session.connection.terminals.output(terminalId).output.trim());
      }
    });
    const escaped = cwds.filter((cwd) => !cwd.startsWith(session.workspace));
    console.log(`terminal race: ${attempts} terminals requested, ${cwds.length} started, ${flips} flips, ${escaped.length} outside`);
    assert.ok(flips > 0, 'the flipper ran');
    assert.deepEqual(escaped, []);
    // The same request starts a terminal once the folder holds still (how many started during the race
    // depends on how the flipper and the gate interleave: on a loaded machine it can be none).
    const folder = path.join(session.workspace, 'd');
    await fs.rm(folder, { recursive: true, force: true });
    await fs.mkdir(folder);
    const [control] = resultsOf(await session.connection.prompt('sess-1', script([{ request: 'terminal/create', params: { sessionId: 'sess-1', command: 'pwd', args: ['-P'], cwd: folder } }])));
    const terminalId = (control?.result as { terminalId?: string } | undefined)?.terminalId;
    assert.ok(terminalId, `a terminal starts in the still folder: ${JSON.stringify(control)}`);
    await session.connection.terminals.waitForExit(terminalId);
    assert.equal(session.connection.terminals.output(terminalId).output.trim(), await fs.realpath(folder));
  });
});

describe('write targets', { timeout: 20_000 }, () => {
  it('refuses a hard link to an outside file, a trailing slash, and writes atomically', async () => {
    const { session, outside } = await start();
    const { workspace } = session;
    const secret = path.join(outside, 'secret.txt');
    await fs.writeFile(secret, 'secret');
    await fs.link(secret, path.join(workspace, 'hard.txt'));
    await fs.mkdir(path.join(workspace, 'dir'));
    const existing = path.join(workspace, 'existing.txt');
    await fs.writeFile(existing, 'old');
    await fs.chmod(existing, 0o640);
    const before = await fs.stat(existing);
    const write = (target: string) => ({ request: 'fs/write_text_file', params: { sessionId: 'sess-1', path: target, content: 'agent' } });
    const [hard, slash, atomic, deep] = resultsOf(
      await session.connection.prompt('sess-1', script([write(path.join(workspace, 'hard.txt')), write(`${path.join(workspace, 'dir')}/`), write(existing), write(path.join(workspace, 'new', 'deep', 'x.txt'))])),
    );
    assert.match(hard!.error!.message, /hard link/);
    assert.equal(await fs.readFile(secret, 'utf8'), 'secret');
    assert.match(slash!.error!.message, /ends with a path separator/);
    assert.ok((await fs.stat(path.join(workspace, 'dir'))).isDirectory());
    assert.deepEqual(atomic!.result, {});
    const after = await fs.stat(existing);
    assert.equal(await fs.readFile(existing, 'utf8'), 'agent');
    assert.notEqual(after.ino, before.ino, 'a new file was renamed into place');
    assert.equal(after.mode & 0o777, 0o640, 'the mode is kept');
    assert.deepEqual(deep!.result, {});
    assert.equal(await fs.readFile(path.join(workspace, 'new', 'deep', 'x.txt'), 'utf8'), 'agent');
    assert.deepEqual((await fs.readdir(workspace)).filter((name) => name.endsWith('.tmp')), []);
  });
});
