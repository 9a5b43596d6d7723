// Open Changes shows what changed on disk, not only what the agent says it changed: the client keeps the
// file's text from when the agent first touched it (its own fs reads and writes, a tool call naming it, a file
// attached to the prompt), compares the disk with that, and says where the agent's report and the disk disagree.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gitPatch } from '../../src/demoAgent/v2Wire';
import { textsBeforePatches } from '../../src/host/patchedTexts';
import { DiskSnapshots, pathsTouchedBy, reviewChange, type ReadForSnapshot } from '../../src/host/diskSnapshots';
import { ownChanges } from '../../src/store/sessionChanges';
import { Wire } from './support/storeFixtures';

const FILE = '/work/notes.md';

/** A v2 diff: the file it changed and a git patch from `oldText` to `newText`. */
function v2Edit(toolCallId: string, oldText: string | null, newText: string, status = 'completed') {
  return {
    sessionUpdate: 'tool_call',
    toolCallId,
    title: 'Edit notes.md',
    kind: 'edit',
    status,
    content: [{ type: 'diff', changes: [{ operation: oldText === null ? 'add' : 'modify', path: FILE }], patch: { format: 'git_patch', text: gitPatch(FILE, oldText, newText) } }],
  };
}

/** Files as a map, read like the host reads the disk. */
function disk(files: Record<string, string>): ReadForSnapshot & { files: Record<string, string>; reads: string[] } {
  const reads: string[] = [];
  const read = async (path: string, maxBytes: number) => {
    reads.push(path);
    const text = files[path];
    if (text === undefined) return null;
    if (Buffer.byteLength(text) > maxBytes) throw new Error(`the file is larger than ${maxBytes} bytes`);
    return text;
  };
  return Object.assign(read, { files, reads });
}

test('the agent wrote a line its patch leaves out: the diff shows it, and the disagreement is flagged', async () => {
  const files = disk({ [FILE]: 'a\nb\n' });
  const snapshots = new DiskSnapshots(files);
  const w = new Wire().newSession('P');
  // The tool call is announced before it runs: the client takes the file's text then.
  await snapshots.touch('P', FILE);
  w.update('P', v2Edit('t1', 'a\nb\n', 'a\nB\n'));
  files.files[FILE] = 'a\nB\nsecret line the patch does not show\n';
  const [change] = ownChanges(w.session('P'));
  // What Open Changes showed before: the patch undone from the disk keeps the extra line on both sides.
  const account = textsBeforePatches(files.files[FILE]!, change!.patches!);
  assert.ok('before' in account && account.before?.includes('secret line'), 'the agent\'s account hides the extra line');

  const review = reviewChange(change!, snapshots.earliest(['P'], FILE), files.files[FILE]!);
  assert.deepEqual(review, { before: 'a\nb\n', after: 'a\nB\nsecret line the patch does not show\n', differs: true });
});

test('the agent\'s report matches the disk: the text it first touched against the disk, no flag', async () => {
  const files = disk({ [FILE]: 'a\nb\n' });
  const snapshots = new DiskSnapshots(files);
  const w = new Wire().newSession('P');
  await snapshots.touch('P', FILE);
  w.update('P', v2Edit('t1', 'a\nb\n', 'a\nB\n'));
  files.files[FILE] = 'a\nB\n';
  w.update('P', v2Edit('t2', 'a\nB\n', 'a\nB\nc\n'));
  files.files[FILE] = 'a\nB\nc\n';
  assert.deepEqual(reviewChange(ownChanges(w.session('P'))[0]!, snapshots.earliest(['P'], FILE), files.files[FILE]!), { before: 'a\nb\n', after: 'a\nB\nc\n' });
});

test('a snapshot taken after the agent already wrote (it reported the change first) agrees with its report: the agent\'s text before', () => {
  const w = new Wire().newSession('P');
  w.update('P', v2Edit('t1', 'a\nb\n', 'a\nB\n'));
  const change = ownChanges(w.session('P'))[0]!;
  assert.deepEqual(reviewChange(change, { order: 1, text: 'a\nB\n' }, 'a\nB\n'), { before: 'a\nb\n', after: 'a\nB\n' });
  // A file the agent reported as created, first seen after: no text before.
  const created = new Wire().newSession('P').update('P', v2Edit('t1', null, 'x\n'));
  assert.deepEqual(reviewChange(ownChanges(created.session('P'))[0]!, { order: 1, text: 'x\n' }, 'x\n'), { before: null, after: 'x\n' });
});

test('a copy taken while the agent writes the file (read between its truncation and its write) is read again: an honest edit is not flagged', async () => {
  // The disk as the client sees it: empty for one read (truncated, not written yet), then the agent's text.
  const seen = ['', 'one\ntwo\n'];
  const reads: string[] = [];
  const snapshots = new DiskSnapshots(async (path) => {
    reads.push(path);
    return seen.length > 1 ? seen.shift()! : seen[0]!;
  });
  await snapshots.touch('P', FILE);
  assert.equal(reads.length, 3, 'read until two reads in a row agree');
  const w = new Wire().newSession('P').update('P', v2Edit('t1', 'one\n', 'one\ntwo\n'));
  assert.deepEqual(reviewChange(ownChanges(w.session('P'))[0]!, snapshots.earliest(['P'], FILE), 'one\ntwo\n'), { before: 'one\n', after: 'one\ntwo\n' });
});

test('an agent descheduled between truncating the file and writing it keeps it empty for reads in a row: the empty copy is confirmed after a pause, and an honest edit is not flagged', async () => {
  // The disk as the client sees it: empty until the agent's write lands, which needs the event loop to turn (a
  // timer), as a descheduled agent needs the machine; reads back to back see the empty file each time.
  let text = '';
  setTimeout(() => (text = 'one\ntwo\n'), 0);
  const snapshots = new DiskSnapshots(async () => text, { perFileBytes: 1024, totalBytes: 4096, files: 10, emptyConfirmMs: 20 });
  await snapshots.touch('P', FILE);
  assert.deepEqual(snapshots.earliest(['P'], FILE), { order: 1, text: 'one\ntwo\n' });
  const w = new Wire().newSession('P').update('P', v2Edit('t1', 'one\n', 'one\ntwo\n'));
  assert.deepEqual(reviewChange(ownChanges(w.session('P'))[0]!, snapshots.earliest(['P'], FILE), 'one\ntwo\n'), { before: 'one\n', after: 'one\ntwo\n' });
  // A file that is empty stays empty: its copy is the empty text.
  const empty = new DiskSnapshots(async () => '', { perFileBytes: 1024, totalBytes: 4096, files: 10, emptyConfirmMs: 1 });
  await empty.touch('P', FILE);
  assert.deepEqual(empty.earliest(['P'], FILE), { order: 1, text: '' });
});

test('a file that changes at every read gets no copy, and the review says why', async () => {
  let n = 0;
  const snapshots = new DiskSnapshots(async () => `line ${n++}\n`);
  await snapshots.touch('P', FILE);
  assert.equal(n, 4, 'four reads at most');
  const copy = snapshots.earliest(['P'], FILE);
  assert.ok(copy && 'missing' in copy && copy.missing === 'it changed each time Subchats read it', JSON.stringify(copy));
});

test('written through fs/write_text_file with more than the patch it reported: the disk is shown and flagged', async () => {
  const files = disk({ [FILE]: 'a\n' });
  const snapshots = new DiskSnapshots(files);
  const w = new Wire().newSession('P');
  // The client takes the text before it writes.
  await snapshots.touch('P', FILE);
  w.clientResult(w.agentRequest('fs/write_text_file', { sessionId: 'P', path: FILE, content: 'a\nb\nextra\n' }), null);
  files.files[FILE] = 'a\nb\nextra\n';
  w.update('P', v2Edit('t1', 'a\n', 'a\nb\n'));
  const review = reviewChange(ownChanges(w.session('P'))[0]!, snapshots.earliest(['P'], FILE), files.files[FILE]!);
  assert.deepEqual(review, { before: 'a\n', after: 'a\nb\nextra\n', differs: true });
  // The same write with a patch that says all of it agrees.
  const honest = new Wire().newSession('P');
  honest.clientResult(honest.agentRequest('fs/write_text_file', { sessionId: 'P', path: FILE, content: 'a\nb\nextra\n' }), null);
  honest.update('P', v2Edit('t1', 'a\n', 'a\nb\nextra\n'));
  assert.deepEqual(reviewChange(ownChanges(honest.session('P'))[0]!, snapshots.earliest(['P'], FILE), 'a\nb\nextra\n'), { before: 'a\n', after: 'a\nb\nextra\n' });
});

test('ACP v1 texts: a reported text after that is not the disk is flagged; an edit reported only by location shows the disk', () => {
  const v1 = new Wire().newSession('P').update('P', { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit', kind: 'edit', status: 'completed', content: [{ type: 'diff', path: FILE, oldText: 'a\n', newText: 'b\n' }] });
  const change = ownChanges(v1.session('P'))[0]!;
  assert.deepEqual(reviewChange(change, { order: 1, text: 'a\n' }, 'b\n'), { before: 'a\n', after: 'b\n' });
  assert.deepEqual(reviewChange(change, { order: 1, text: 'a\n' }, 'b\nhidden\n'), { before: 'a\n', after: 'b\nhidden\n', differs: true });
  const located = new Wire().newSession('P').update('P', { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit', kind: 'edit', status: 'completed', locations: [{ path: FILE }] });
  assert.deepEqual(reviewChange(ownChanges(located.session('P'))[0]!, { order: 1, text: 'a\n' }, 'a\nb\n'), { before: 'a\n', after: 'a\nb\n' });
  assert.deepEqual(reviewChange(ownChanges(located.session('P'))[0]!, undefined, 'a\nb\n'), { reason: 'the agent reported which file it changed, not how' });
});

test('without a snapshot the agent\'s account is shown, and a file past the bounds says so', async () => {
  const w = new Wire().newSession('P').update('P', v2Edit('t1', 'a\nb\n', 'a\nB\n'));
  const change = ownChanges(w.session('P'))[0]!;
  assert.deepEqual(reviewChange(change, undefined, 'a\nB\n'), { before: 'a\nb\n', after: 'a\nB\n' });
  const snapshots = new DiskSnapshots(disk({ [FILE]: 'x'.repeat(11), '/work/b.md': 'y'.repeat(8), '/work/c.md': 'z'.repeat(8), '/work/d.md': '' }), { perFileBytes: 10, totalBytes: 15, files: 3, emptyConfirmMs: 0 });
  await snapshots.touch('P', FILE);
  await snapshots.touch('P', '/work/b.md');
  await snapshots.touch('P', '/work/c.md');
  await snapshots.touch('P', '/work/d.md');
  assert.deepEqual(snapshots.earliest(['P'], FILE), { order: 1, missing: 'the file is larger than 10 bytes' });
  assert.deepEqual(snapshots.earliest(['P'], '/work/b.md'), { order: 2, text: 'yyyyyyyy' });
  assert.deepEqual(snapshots.earliest(['P'], '/work/c.md'), { order: 3, missing: 'Subchats keeps at most 15 bytes of file copies per agent connection' });
  assert.equal(snapshots.earliest(['P'], '/work/d.md'), undefined, 'past the number of files nothing is read');
  assert.equal(snapshots.bytes, 8);
  assert.deepEqual(reviewChange(change, { order: 1, missing: 'it is larger than 1 MB' }, 'a\nB\n'), {
    before: 'a\nb\n',
    after: 'a\nB\n',
    note: 'Subchats kept no copy of it from before the agent\'s work (it is larger than 1 MB): the text before is the agent\'s account',
  });
});

test('the first touch is kept; a tree uses the earliest snapshot of its sessions; touches while reading share one read', async () => {
  const files = disk({ [FILE]: 'one\n' });
  const snapshots = new DiskSnapshots(files);
  await Promise.all([snapshots.touch('C', FILE), snapshots.touch('C', FILE)]);
  files.files[FILE] = 'two\n';
  await snapshots.touch('C', FILE);
  await snapshots.touch('P', FILE);
  assert.deepEqual(files.reads, [FILE, FILE, FILE, FILE], 'two reads per copy (they agree), one copy per session');
  assert.deepEqual(snapshots.earliest(['P'], FILE), { order: 2, text: 'two\n' });
  assert.deepEqual(snapshots.earliest(['P', 'C'], FILE), { order: 1, text: 'one\n' });
  assert.equal(snapshots.earliest(['X'], FILE), undefined);
});

test('the files a message touches: tool call locations and diffs (v1 and v2), client fs requests, files attached to a prompt; odd input is ignored', () => {
  const cwd = (id: string) => (id === 'P' ? '/work' : undefined);
  const update = (u: unknown) => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'P', update: u } });
  assert.deepEqual(pathsTouchedBy(update({ sessionUpdate: 'tool_call', locations: [{ path: 'src/a.ts' }, { path: 7 }, null], content: [{ type: 'diff', path: '/work/b.md' }, { type: 'diff', changes: [{ path: '/work/c.md' }, 'x'] }] }), 'agent->client', cwd), [
    { sessionId: 'P', path: '/work/src/a.ts' },
    { sessionId: 'P', path: '/work/b.md' },
    { sessionId: 'P', path: '/work/c.md' },
  ]);
  assert.deepEqual(pathsTouchedBy(update({ sessionUpdate: 'tool_call_content_chunk', content: { type: 'diff', changes: [{ path: '/work/d.md' }] } }), 'agent->client', cwd), [{ sessionId: 'P', path: '/work/d.md' }]);
  assert.deepEqual(pathsTouchedBy({ jsonrpc: '2.0', id: 1, method: 'fs/write_text_file', params: { sessionId: 'P', path: '/work/e.md', content: '' } }, 'agent->client', cwd), [{ sessionId: 'P', path: '/work/e.md' }]);
  const prompt = { jsonrpc: '2.0', id: 2, method: 'session/prompt', params: { sessionId: 'P', prompt: [{ type: 'resource_link', uri: 'file:///work/f%20g.md', name: 'f' }, { type: 'resource', resource: { uri: 'file:///work/h.md', text: '' } }, { type: 'resource_link', uri: 'https://x.test/' }] } };
  assert.deepEqual(pathsTouchedBy(prompt, 'client->agent', cwd), [{ sessionId: 'P', path: '/work/f g.md' }, { sessionId: 'P', path: '/work/h.md' }]);
  // A relative path without a known folder, an agent's prompt, junk: nothing, and no throw.
  assert.deepEqual(pathsTouchedBy({ method: 'session/update', params: { sessionId: 'Q', update: { locations: [{ path: 'a' }] } } }, 'agent->client', cwd), []);
  assert.deepEqual(pathsTouchedBy(prompt, 'agent->client', cwd), []);
  for (const junk of [null, 1, [], { method: 'session/update' }, { method: 'session/update', params: { sessionId: 'P', update: { content: 5, locations: 'x' } } }]) assert.deepEqual(pathsTouchedBy(junk, 'agent->client', cwd), []);
});
