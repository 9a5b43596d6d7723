// Whether a configured agent's command is there: a bare command is looked up on PATH, a path must exist.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { installState, onPath } from '../../src/host/agentInstallState';

const dir = mkdtempSync(path.join(tmpdir(), 'subchats-install-'));
writeFileSync(path.join(dir, 'npx'), '');
writeFileSync(path.join(dir, 'uvx.CMD'), '');
const env = { PATH: dir };

test('a bare command is ready when a file of that name is on PATH', () => {
  assert.deepEqual(installState({ command: 'npx' }, env, 'linux'), { ready: true, note: 'npx found on PATH' });
  assert.deepEqual(installState({ command: 'uvx' }, env, 'linux'), { ready: false, note: 'not installed: uvx is not on PATH' });
});

test('on Windows the PATHEXT extensions are tried', () => {
  assert.equal(onPath('uvx', { Path: dir, PATHEXT: '.EXE;.CMD' }, 'win32'), true);
});

test('a command given as a path must exist; the built-in demo agent is always ready', () => {
  assert.equal(installState({ command: path.join(dir, 'npx') }, env, 'linux').ready, true);
  assert.deepEqual(installState({ command: path.join(dir, 'gone', 'agent') }, env, 'linux'), { ready: false, note: 'not installed: agent is missing' });
  assert.deepEqual(installState({ command: '/nowhere/node', builtIn: true }, env, 'linux'), { ready: true, note: 'built in' });
});
