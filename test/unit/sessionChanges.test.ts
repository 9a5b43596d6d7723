// The Changes lists: derived once in the store from completed tool-call diffs, location-only edits and the
// client's fs writes; a tree merges its sessions per file.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { changeSummary, ownChanges, subtreeChanges } from '../../src/store/sessionChanges';
import { changeCounts, changePath, filesChangedLabel } from '../../src/presentation';
import { patchFor, readPatch } from '../../src/store/gitPatches';
import { announce, replayFixture, Wire } from './support/storeFixtures';

function editCall(toolCallId: string, status: string, path: string, oldText: string | null, newText: string) {
  return { sessionUpdate: 'tool_call', toolCallId, title: `Edit ${path}`, kind: 'edit', status, content: [{ type: 'diff', path, oldText, newText }], locations: [{ path }] };
}

const summary = (changes: readonly { path: string; added: number; removed: number; exact: boolean; created: boolean; textKnown: boolean }[]) =>
  changes.map(({ path, added, removed, exact, created, textKnown }) => ({ path, added, removed, exact, created, textKnown }));

test('a completed diff counts; a pending or failed one does not', () => {
  const w = new Wire().newSession('P');
  w.update('P', editCall('t1', 'pending', '/work/a.md', 'one\ntwo\n', 'one\n2\nthree\n'));
  w.update('P', editCall('t2', 'failed', '/work/b.md', null, 'x\n'));
  assert.deepEqual(ownChanges(w.session('P')), []);
  w.update('P', { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' });
  assert.deepEqual(summary(ownChanges(w.session('P'))), [{ path: '/work/a.md', added: 2, removed: 1, exact: true, created: false, textKnown: true }]);
});

test('a file written through fs/write_text_file is a change; its diff gives the text before', () => {
  const w = new Wire().newSession('P');
  w.update('P', editCall('t1', 'completed', '/work/new.md', null, 'a\nb\n'));
  const write = w.agentRequest('fs/write_text_file', { sessionId: 'P', path: '/work/new.md', content: 'a\nb\nc\n' });
  // Only a write that succeeded landed.
  assert.equal(ownChanges(w.session('P'))[0]?.after, 'a\nb\n');
  w.clientResult(write, null);
  const [change] = ownChanges(w.session('P'));
  assert.equal(change?.before, null);
  assert.equal(change?.after, 'a\nb\nc\n');
  assert.deepEqual(summary(ownChanges(w.session('P'))), [{ path: '/work/new.md', added: 3, removed: 0, exact: true, created: true, textKnown: true }]);
});

test('a write with no diff has an unknown text before: its counts are bounds, not "new file"', () => {
  const w = new Wire().newSession('P');
  w.clientResult(w.agentRequest('fs/write_text_file', { sessionId: 'P', path: '/work/x.txt', content: 'l1\nl2\n' }), null);
  const failed = w.agentRequest('fs/write_text_file', { sessionId: 'P', path: '/work/y.txt', content: 'nope' });
  w.store.ingest({ jsonrpc: '2.0', id: failed, error: { code: -32603, message: 'denied' } }, 'client->agent');
  const [change, ...rest] = ownChanges(w.session('P'));
  assert.deepEqual(rest, []);
  assert.equal(change?.before, undefined);
  assert.deepEqual(summary([change!]), [{ path: '/work/x.txt', added: 2, removed: 0, exact: false, created: false, textKnown: true }]);
  assert.equal(change?.beforeKnown, false);
  assert.equal(changeCounts(change!), '2 lines written, earlier text not reported');
});

test('an edit reported only by its location is listed without counts', () => {
  const w = new Wire().newSession('P');
  w.update('P', { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit', kind: 'edit', status: 'completed', locations: [{ path: '/work/c.ts', line: 3 }] });
  w.update('P', { sessionUpdate: 'tool_call', toolCallId: 't2', title: 'Read', kind: 'read', status: 'completed', locations: [{ path: '/work/d.ts' }] });
  const changes = ownChanges(w.session('P'));
  assert.deepEqual(summary(changes), [{ path: '/work/c.ts', added: 0, removed: 0, exact: false, created: false, textKnown: false }]);
  assert.equal(changeCounts(changes[0]!), 'no text reported');
});

test('the same file edited twice is one change from the first text before to the last after', () => {
  const w = new Wire().newSession('P');
  w.update('P', editCall('t1', 'completed', '/work/a.md', 'v1\n', 'v2\n'));
  w.update('P', editCall('t2', 'completed', '/work/a.md', 'v2\n', 'v3\nmore\n'));
  const [change, ...rest] = ownChanges(w.session('P'));
  assert.deepEqual(rest, []);
  assert.equal(change?.before, 'v1\n');
  assert.equal(change?.after, 'v3\nmore\n');
  assert.equal(change?.added, 2);
  assert.equal(change?.removed, 1);
});

test('a tree merges its sessions per file; own changes stay per session', () => {
  const w = new Wire().newSession('P');
  w.update('P', announce('C', { title: 'Child', state: 'running' }));
  w.update('P', editCall('t1', 'completed', '/work/notes.md', 'a\n', 'a\nb\n'));
  w.update('C', editCall('c1', 'completed', '/work/review.md', null, 'r\n'));
  w.update('C', editCall('c2', 'completed', '/work/notes.md', 'a\nb\n', 'a\nb\nc\n'));
  assert.deepEqual(ownChanges(w.session('P')).map((c) => c.path), ['/work/notes.md']);
  assert.deepEqual(ownChanges(w.session('C')).map((c) => c.path), ['/work/review.md', '/work/notes.md']);
  const tree = subtreeChanges(w.store, 'P');
  assert.deepEqual(tree.map((c) => [c.path, c.before, c.after, c.added, c.removed]), [
    ['/work/notes.md', 'a\n', 'a\nb\nc\n', 2, 0],
    ['/work/review.md', null, 'r\n', 1, 0],
  ]);
  assert.deepEqual(subtreeChanges(w.store, 'C'), ownChanges(w.session('C')));
  assert.deepEqual(subtreeChanges(w.store, 'missing'), []);
});

test('unchanged facts give the same list back (the counts are not recomputed)', () => {
  const w = new Wire().newSession('P');
  w.update('P', editCall('t1', 'completed', '/work/a.md', 'a\n', 'b\n'));
  const first = ownChanges(w.session('P'));
  w.update('P', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } });
  assert.equal(ownChanges(w.session('P')), first);
  w.update('P', editCall('t2', 'completed', '/work/b.md', null, 'x\n'));
  assert.notEqual(ownChanges(w.session('P')), first);
});

test('bad agent input in diffs is skipped, not thrown on', () => {
  const w = new Wire().newSession('P');
  w.update('P', { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'x', kind: 'edit', status: 'completed', content: [{ type: 'diff', path: 5, newText: 'a' }, { type: 'diff', path: '/p' }], locations: [{ path: 7 }] });
  assert.deepEqual(ownChanges(w.session('P')), []);
});

test('presentation: labels and paths', () => {
  assert.equal(filesChangedLabel(0), '');
  assert.equal(filesChangedLabel(1), '1 file changed');
  assert.equal(filesChangedLabel(3), '3 files changed');
  assert.equal(changeCounts({ added: 3, removed: 1, exact: true, textKnown: true, beforeKnown: true }), '+3 −1');
  assert.equal(changeCounts({ added: 3, removed: 1, exact: false, textKnown: true, beforeKnown: true }), '+≤3 −≤1');
  assert.equal(changePath('/work/sub/a.md', '/work'), 'sub/a.md');
  assert.equal(changePath('/work/sub/a.md', '/work/'), 'sub/a.md');
  assert.equal(changePath('/workspace/a.md', '/work'), '/workspace/a.md');
  assert.equal(changePath('C:\\w\\a.md', 'C:\\w'), 'a.md');
  assert.equal(changePath('rel/a.md', null), 'rel/a.md');
});

test('a write a subagent made under its parent\'s session id (qwen) is the subagent\'s change, not the parent\'s', () => {
  const { store } = replayFixture('traces', 'qwen-single.jsonl');
  const root = store.listSessions().find((s) => s.parentId === null)!;
  const writer = store.listSessions().find((s) => ownChanges(s).some((c) => c.path === '/home/user/project/sub-A.txt') && s.parentId !== null);
  assert.ok(writer, 'the subagent lists sub-A.txt');
  assert.deepEqual(ownChanges(root).map((c) => c.path), [], 'the parent wrote nothing itself');
  const change = ownChanges(writer).find((c) => c.path === '/home/user/project/sub-A.txt');
  assert.deepEqual([change?.before, change?.after, change?.added, change?.created], ['', 'written by subagent A\n', 1, false]);
  assert.ok(subtreeChanges(store, root.id).some((c) => c.path === '/home/user/project/sub-A.txt'));
});

test('asked again with nothing changed in the store, a subtree is not walked again (the tree ticks every second)', () => {
  const w = new Wire().newSession('P');
  for (let i = 0; i < 50; i++) w.update('P', announce(`C${i}`, { title: `Child ${i}`, state: 'running' }));
  w.update('C3', editCall('c1', 'completed', '/work/review.md', null, 'r\n'));
  let lookups = 0;
  const counting = { get revision() { return w.store.revision; }, getSession: (id: string) => (lookups++, w.store.getSession(id)) };
  const first = subtreeChanges(counting, 'P');
  assert.ok(lookups > 50, `the first call walks the subtree (${lookups} lookups)`);
  lookups = 0;
  assert.equal(subtreeChanges(counting, 'P'), first);
  assert.equal(lookups, 1, 'only the root is looked up');
  w.update('C4', editCall('c2', 'completed', '/work/other.md', null, 'o\n'));
  assert.deepEqual(subtreeChanges(counting, 'P').map((c) => c.path), ['/work/review.md', '/work/other.md']);
});

test('an ACP v2 diff (changed files + git patch, no texts) counts from its patch and keeps the patches, oldest first, to rebuild its texts', async () => {
  const { gitPatch } = await import('../../src/demoAgent/v2Wire');
  const w = new Wire().newSession('P');
  w.update('P', announce('C', { title: 'Child', state: 'running' }));
  const v2Diff = (path: string, oldText: string | null, newText: string) => ({
    type: 'diff',
    changes: [{ operation: oldText === null ? 'add' : 'modify', path }],
    patch: { format: 'git_patch', text: gitPatch(path, oldText, newText) },
  });
  w.update('P', { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit', kind: 'edit', status: 'completed', content: [v2Diff('/work/notes.md', 'a\nb\n', 'a\nB\nc\n')] });
  w.update('C', { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Write', kind: 'edit', status: 'completed', content: [v2Diff('/work/new.md', null, 'x\ny\n'), { type: 'diff', changes: [{ operation: 'delete', path: '/work/gone.md' }] }] });
  w.update('C', { sessionUpdate: 'tool_call', toolCallId: 'c2', title: 'Edit', kind: 'edit', status: 'completed', content: [v2Diff('/work/notes.md', 'a\nB\nc\n', 'a\nB\nc\nd\n')] });
  const own = ownChanges(w.session('P'));
  assert.deepEqual(own.map((c) => [c.path, c.added, c.removed, c.fromPatch, c.after]), [['/work/notes.md', 3, 2, true, undefined]]);
  // As the agent's patch counts them (the demo's patch removes all old lines and adds all new ones).
  assert.equal(changeCounts(changeSummary(own[0]!)), '+3 −2');
  const child = ownChanges(w.session('C'));
  assert.deepEqual(child.map((c) => [c.path, c.created, changeCounts(c)]), [
    ['/work/new.md', true, '+2 −0'],
    ['/work/gone.md', false, 'no text reported'],
    ['/work/notes.md', false, '+4 −3'],
  ]);
  // The tree adds up each session's patch for a file both changed.
  const tree = subtreeChanges(w.store, 'P');
  const notes = tree.find((c) => c.path === '/work/notes.md')!;
  assert.equal(changeCounts(notes), '+7 −5');
  // Both sessions' patches, in the tree's order: undone from the file as it ends, they give the first text.
  assert.equal(notes.patches?.length, 2);
  const { textsBeforePatches } = await import('../../src/host/patchedTexts');
  assert.deepEqual(textsBeforePatches('a\nB\nc\nd\n', notes.patches!), { before: 'a\nb\n', after: 'a\nB\nc\nd\n' });
  assert.equal(child.find((c) => c.path === '/work/gone.md')?.patches, undefined, 'a diff without a patch has nothing to undo');
});

test('git patch counts: per file, headers are not lines, deleted files count under their old path', () => {
  const sections = readPatch(['diff --git a/src/a.ts b/src/a.ts', 'index 1..2 100644', '--- a/src/a.ts', '+++ b/src/a.ts', '@@ -1,2 +1,3 @@', ' same', '-old', '+new', '+more', 'diff --git a/b.md b/b.md', 'deleted file mode 100644', '--- a/b.md', '+++ /dev/null', '@@ -1 +0,0 @@', '-bye', ''].join('\n'));
  assert.deepEqual(sections.map((s) => [s.name, s.added, s.removed]), [['src/a.ts', 2, 1], ['b.md', 0, 1]]);
  assert.equal(patchFor(sections, '/repo/src/a.ts')?.added, 2);
  assert.equal(patchFor(sections, '/repo/xsrc/a.ts'), undefined);
  assert.deepEqual(readPatch('not a patch\n+++\n@@'), []);
  // A hunk whose header miscounts its lines is not a patch git would apply: it is not read (never thrown).
  assert.deepEqual(readPatch(['--- a/x', '+++ b/x', '@@ -1,2 +1,2 @@', ' same', '-old', '+new', '+more', ''].join('\n')), []);
});
