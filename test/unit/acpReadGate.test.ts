// fs/read_text_file (issue 14 item 3): inside the workspace freely; /proc, /sys, /dev never; anything else
// (symlinks out included) only after the user allowed it, once or for this session.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { readConfined } from '../../src/acp/confinedFs';
import { makeWorkspace, resultsOf, script, startFake, type FakeSession } from '../fixtures/fake-agents/harness';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function start(): Promise<{ session: FakeSession; outside: string; secret: string }> {
  const session = await startFake('normal');
  const outside = makeWorkspace();
  cleanup.push(() => session.dispose(), () => fs.rm(outside, { recursive: true, force: true }));
  const secret = path.join(outside, 'secret.txt');
  await fs.writeFile(secret, 'secret');
  await session.connection.newSession(session.workspace);
  return { session, outside, secret };
}

const read = (target: string, sessionId = 'sess-1') => ({ request: 'fs/read_text_file', params: { sessionId, path: target } });

describe('reads outside the workspace', { timeout: 20_000 }, () => {
  it('refuses /proc, /sys and /dev outright, also through a symlink, without asking', async () => {
    const { session } = await start();
    await fs.symlink('/proc/self/environ', path.join(session.workspace, 'env-link'));
    const targets = ['/proc/self/environ', '/proc/1/cmdline', '/sys/kernel/hostname', '/dev/zero', path.join(session.workspace, 'env-link')];
    const results = resultsOf(await session.connection.prompt('sess-1', script(targets.map((target) => read(target)))));
    assert.equal(results.length, targets.length);
    for (const result of results) {
      assert.equal(result.result, undefined, 'nothing was read');
      assert.match(result.error!.message, /system path; agents may not read it/);
    }
    assert.equal(session.host.readQuestions.length, 0);
  });

  it('asks, naming the agent, the session and the exact path; a denial reads nothing', async () => {
    const { session, secret } = await start();
    session.host.readAnswer = 'deny';
    const [denied] = resultsOf(await session.connection.prompt('sess-1', script([read(secret)])));
    assert.match(denied!.error!.message, /was not allowed by the user/);
    assert.equal(session.host.readQuestions.length, 1);
    const question = session.host.readQuestions[0]!;
    assert.equal(question.agentName, 'Fake');
    assert.equal(question.sessionId, 'sess-1');
    assert.equal(question.sessionLabel, session.connection.store.getSession('sess-1')?.label);
    assert.equal(question.path, secret);
  });

  it('treats a symlink out of the workspace as outside, and reads once when allowed once', async () => {
    const { session, secret } = await start();
    const link = path.join(session.workspace, 'looks-inside.txt');
    await fs.symlink(secret, link);
    session.host.readAnswer = 'once';
    const [first, second] = resultsOf(await session.connection.prompt('sess-1', script([read(link), read(link)])));
    assert.deepEqual(first!.result, { content: 'secret' });
    assert.deepEqual(second!.result, { content: 'secret' });
    assert.equal(session.host.readQuestions.length, 2, 'allow once asks again next time');
    assert.equal(session.host.readQuestions[0]!.realPath, secret);
  });

  it('"for this session" covers that path in that session only', async () => {
    const { session, secret } = await start();
    session.host.readAnswer = 'session';
    const inside = path.join(session.workspace, 'inside.txt');
    await fs.writeFile(inside, 'inside');
    const results = resultsOf(await session.connection.prompt('sess-1', script([read(secret), read(secret), read(inside), read(secret, 'other-session')])));
    assert.deepEqual(
      results.map((r) => r.result),
      [{ content: 'secret' }, { content: 'secret' }, { content: 'inside' }, { content: 'secret' }],
    );
    assert.deepEqual(
      session.host.readQuestions.map((q) => q.sessionId),
      ['sess-1', 'other-session'],
    );
  });
});

describe('readConfined', () => {
  it('reads a regular file the check allows, and refuses one over its size bound without reading it', async () => {
    const dir = await fs.mkdtemp(path.join(tmpdir(), 'subchats-read-'));
    const file = path.join(dir, 'big.txt');
    await fs.writeFile(file, 'x'.repeat(3 * 1024 * 1024));
    assert.equal((await readConfined(file, () => true)).length, 3 * 1024 * 1024);
    await assert.rejects(readConfined(file, () => true, 2 * 1024 * 1024), /the file is 3 MB, more than 2 MB/);
    await fs.rm(dir, { recursive: true, force: true });
  });
});
