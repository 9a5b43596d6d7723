// What an agent or a terminal command started dies with it: on dispose, on release, and when the extension
// host exits (issue 14: process groups outlived the host).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, promises as fs, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { AgentProcess } from '../../src/acp/agentProcess';
import { TerminalManager } from '../../src/acp/terminals';
import { waitFor } from '../fixtures/fake-agents/harness';

const STUBBORN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'fake-agents', 'stubbornAgent.mjs');
const REPO = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function pidsIn(file: string, count: number): Promise<number[]> {
  await waitFor(() => (readFileSync(file, { encoding: 'utf8', flag: 'a+' }).trim().split('\n').filter(Boolean).length >= count), 'pids written');
  return readFileSync(file, 'utf8').trim().split('\n').map(Number);
}

function killAll(pids: readonly number[]): void {
  for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
}

describe('process groups', { timeout: 30_000, skip: process.platform === 'win32' }, () => {
  it('stopping an agent that ignores SIGTERM and stdin EOF also ends its grandchild', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'subchats-groups-'));
    const pidFile = path.join(dir, 'pids');
    const agent = AgentProcess.spawn({ id: 'stubborn', name: 'Stubborn', command: process.execPath, args: [STUBBORN], env: { STUBBORN_PID_FILE: pidFile } }, { cwd: dir });
    const pids = await pidsIn(pidFile, 2);
    try {
      agent.stop(300);
      await waitFor(() => pids.every((pid) => !alive(pid)), 'agent and grandchild gone', 5000);
    } finally {
      killAll(pids);
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('releasing a terminal whose command exited ends what it left running in its group', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'subchats-groups-'));
    const pidFile = path.join(dir, 'pids');
    const manager = new TerminalManager({ workspaceFolders: () => [dir], baseEnv: { ...process.env, STUBBORN_PID_FILE: pidFile } });
    const id = await manager.create({ sessionId: 's', command: 'sh', args: ['-c', 'sleep 60 >/dev/null 2>&1 & echo $! > "$STUBBORN_PID_FILE"'], cwd: dir });
    await manager.waitForExit(id);
    const [grandchild] = await pidsIn(pidFile, 1);
    try {
      assert.ok(alive(grandchild!));
      manager.releaseAll();
      await waitFor(() => !alive(grandchild!), 'grandchild gone', 5000);
    } finally {
      killAll([grandchild!]);
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('groups still running when the host process exits are killed on exit', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'subchats-groups-'));
    const pidFile = path.join(dir, 'pids');
    const host = `
      const { AgentProcess } = require(${JSON.stringify(path.join(REPO, 'src/acp/agentProcess.ts'))});
      AgentProcess.spawn({ id: 's', name: 'S', command: process.execPath, args: [${JSON.stringify(STUBBORN)}], env: { STUBBORN_PID_FILE: ${JSON.stringify(pidFile)} } }, { cwd: ${JSON.stringify(dir)} });
      const fs = require('fs');
      const t = setInterval(() => { if ((fs.existsSync(${JSON.stringify(pidFile)}) ? fs.readFileSync(${JSON.stringify(pidFile)}, 'utf8') : '').trim().split('\\n').length >= 2) { clearInterval(t); process.exit(0); } }, 20);`;
    const result = spawnSync(process.execPath, ['--import', 'tsx', '-e', host], { cwd: REPO, encoding: 'utf8', timeout: 20_000 });
    assert.equal(result.status, 0, result.stderr);
    const pids = readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
    try {
      await waitFor(() => pids.every((pid) => !alive(pid)), 'agent and grandchild gone after the host exited', 5000);
    } finally {
      killAll(pids);
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
