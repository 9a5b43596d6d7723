// TerminalManager with real child processes (node -e ...), no shell involved.
import assert from 'node:assert/strict';
import { mkdtempSync, promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it, test } from 'node:test';
import { ClientRequestError } from '../../src/acp/errors';
import { MAX_OUTPUT_BYTE_LIMIT, TerminalManager } from '../../src/acp/terminals';
import { makeWorkspace } from '../fixtures/fake-agents/harness';

let workspace: string;
let manager: TerminalManager;
before(() => {
  workspace = makeWorkspace();
  manager = new TerminalManager({ workspaceFolders: () => [workspace], killGraceMs: 1000 });
});
after(async () => {
  manager.releaseAll();
  await fs.rm(workspace, { recursive: true, force: true });
});

const node = (code: string, extra: Partial<Parameters<TerminalManager['create']>[0]> = {}) =>
  manager.create({ sessionId: 's', command: process.execPath, args: ['-e', code], ...extra });

describe('TerminalManager', { timeout: 20_000 }, () => {
  it('runs command+args without a shell, in the workspace by default, with extra env', async () => {
    const id = await node('console.log(process.cwd() + "|" + process.env.EXTRA + "|" + process.argv.length)', { env: [{ name: 'EXTRA', value: '$HOME;x' }] });
    assert.deepEqual(await manager.waitForExit(id), { exitCode: 0, signal: null });
    assert.equal(manager.output(id).output, `${workspace}|$HOME;x|1\n`);
  });

  it('reports a non-zero exit code and stderr', async () => {
    const id = await node('process.stderr.write("bad\\n"); process.exit(4)');
    assert.deepEqual(await manager.waitForExit(id), { exitCode: 4, signal: null });
    assert.deepEqual(manager.output(id), { output: 'bad\n', truncated: false, exitStatus: { exitCode: 4, signal: null } });
  });

  it('truncates from the beginning at a character boundary', async () => {
    // 30 × "é" (2 bytes each) then "END"; a 9-byte limit keeps "ééé" + "END" only if it cuts on a boundary.
    const id = await node('process.stdout.write("é".repeat(30)); process.stdout.write("END")', { outputByteLimit: 10 });
    await manager.waitForExit(id);
    const snapshot = manager.output(id);
    assert.equal(snapshot.truncated, true);
    assert.equal(snapshot.output, 'éééEND'); // 10 bytes would start inside an é: 1 byte dropped
    assert.ok(Buffer.byteLength(snapshot.output) <= 10);
  });

  it('kills a running command (and what it started) and keeps its output until released', async () => {
    const exits: string[] = [];
    manager.onDidExit((event) => exits.push(event.terminalId));
    const id = await node('console.log("started"); setInterval(() => {}, 1000)');
    const outputs: string[] = [];
    manager.onDidOutput((event) => event.terminalId === id && outputs.push(event.data));
    manager.kill(id);
    assert.deepEqual(await manager.waitForExit(id), { exitCode: null, signal: 'SIGTERM' });
    assert.ok(exits.includes(id));
    assert.equal(manager.output(id).exitStatus?.signal, 'SIGTERM');
    manager.release(id);
    assert.equal(manager.has(id), false);
    assert.throws(() => manager.output(id), (error: Error) => error instanceof ClientRequestError && error.code === -32002);
  });

  it('release stops a running command', async () => {
    const id = await node('setInterval(() => {}, 1000)');
    const exited = manager.waitForExit(id);
    manager.release(id);
    assert.equal((await exited).signal, 'SIGTERM');
  });

  it('refuses a cwd outside the workspace, a relative cwd, a missing cwd and a missing command', async () => {
    const rejects = (params: Parameters<TerminalManager['create']>[0], pattern: RegExp) =>
      assert.rejects(manager.create(params), (error: Error) => error instanceof ClientRequestError && pattern.test(error.message));
    await rejects({ sessionId: 's', command: process.execPath, cwd: path.dirname(workspace) }, /outside the workspace/);
    await rejects({ sessionId: 's', command: process.execPath, cwd: 'sub' }, /relative/);
    await rejects({ sessionId: 's', command: process.execPath, cwd: path.join(workspace, 'nope') }, /not an existing directory/);
    await rejects({ sessionId: 's', command: path.join(workspace, 'no-such-binary') }, /Could not run/);
    await rejects({ sessionId: 's', command: '' }, /non-empty command/);
  });

  it('does not interpret shell syntax', async () => {
    const id = await manager.create({ sessionId: 's', command: process.execPath, args: ['-e', 'console.log(process.argv[1])', '$(echo hi) && ls'] });
    await manager.waitForExit(id);
    assert.equal(manager.output(id).output, '$(echo hi) && ls\n');
  });
});

test('a terminal requested while the connection shuts down is refused and its command never keeps running', async () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'subchats-term-race-'));
  const manager = new TerminalManager({ workspaceFolders: () => [folder] });
  const creating = manager.create({ sessionId: 's', command: 'sleep', args: ['30'], cwd: folder });
  manager.releaseAll();
  await assert.rejects(creating, /shutting down|closed/);
});

test('an agent cannot make the client keep more output than the client limit', async () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'subchats-term-limit-'));
  const manager = new TerminalManager({ workspaceFolders: () => [folder] });
  const id = await manager.create({ sessionId: 's', command: process.execPath, args: ['-e', "process.stdout.write('x'.repeat(6 * 1024 * 1024))"], cwd: folder, outputByteLimit: 1e12 });
  await manager.waitForExit(id);
  const { output, truncated } = manager.output(id);
  assert.equal(truncated, true);
  assert.ok(output.length <= MAX_OUTPUT_BYTE_LIMIT, `${output.length} bytes kept`);
  manager.releaseAll();
});
