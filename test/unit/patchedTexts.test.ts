// Open Changes for ACP v2 diffs, which carry git patches and no texts: each patch is read once into per-file
// sections (src/store/gitPatches.ts); the text after is the file as it is, the text before is that with the
// session's sections undone, and a patch that no longer applies (or a file gone or back) says so.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gitPatch } from '../../src/demoAgent/v2Wire';
import { textsBeforePatches } from '../../src/host/patchedTexts';
import { patchFor, readPatch, type FilePatch } from '../../src/store/gitPatches';

const FILE = '/work/repo/notes.md';

/** The section of `patchText` about `file`, as the store keeps it for a change. */
function section(patchText: string, file = FILE): FilePatch {
  const found = patchFor(readPatch(patchText), file);
  assert.ok(found, `the patch names ${file}`);
  return found;
}

/** A patch with context lines, as git writes it: only the second line changes. */
const CONTEXT_PATCH = ['diff --git a/notes.md b/notes.md', 'index 1..2 100644', '--- a/notes.md', '+++ b/notes.md', '@@ -1,3 +1,3 @@', ' # Notes', '-draft', '+final', ' end', ''].join('\n');
const DELETION = ['diff --git a/notes.md b/notes.md', 'deleted file mode 100644', '--- a/notes.md', '+++ /dev/null', '@@ -1,2 +0,0 @@', '-bye', '-now', ''].join('\n');

test('a modified file: the text before is the current text with the patch undone', () => {
  assert.deepEqual(textsBeforePatches('# Notes\nfinal\nend\n', [section(CONTEXT_PATCH)]), { before: '# Notes\ndraft\nend\n', after: '# Notes\nfinal\nend\n' });
});

test('two successive patches are undone newest first, back to the text before the first', () => {
  const first = section(gitPatch(FILE, 'one\n', 'two\n'));
  const second = section(gitPatch(FILE, 'two\n', 'three\nfour\n'));
  assert.deepEqual(textsBeforePatches('three\nfour\n', [first, second]), { before: 'one\n', after: 'three\nfour\n' });
});

test('a file a patch created has no text before; a deleted one has no text after', () => {
  assert.deepEqual(textsBeforePatches('hello\n', [section(gitPatch(FILE, null, 'hello\n'))]), { before: null, after: 'hello\n' });
  assert.deepEqual(textsBeforePatches(null, [section(DELETION)]), { before: 'bye\nnow\n', after: '' });
});

test('a file changed since, gone, or created again after its deletion gives a reason, not a guess', () => {
  assert.deepEqual(textsBeforePatches('# Notes\nedited by hand\nend\n', [section(CONTEXT_PATCH)]), { problem: 'the file changed after the agent\'s edit, so its patch no longer applies' });
  assert.deepEqual(textsBeforePatches(null, [section(CONTEXT_PATCH)]), { problem: 'the file no longer exists' });
  // Undoing the deletion on the new file would pass the user's new text off as what the agent deleted.
  assert.deepEqual(textsBeforePatches('recreated by hand\n', [section(DELETION)]), { problem: 'the file was created again after the agent deleted it' });
  assert.deepEqual(textsBeforePatches('x\n', []), { problem: 'the agent sent no patch for it' });
});

test('reading a patch: counts, created and deleted per file; unreadable text gives no sections', () => {
  const sections = readPatch(`${CONTEXT_PATCH}${gitPatch('/work/repo/new.md', null, 'a\nb\n')}${DELETION.replaceAll('notes.md', 'old.md')}`);
  assert.deepEqual(sections.map(({ name, added, removed, creates, deletes }) => [name, added, removed, creates, deletes]), [
    ['notes.md', 1, 1, false, false],
    ['work/repo/new.md', 2, 0, true, false],
    ['old.md', 0, 2, false, true],
  ]);
  assert.deepEqual(readPatch('--- a/notes.md\n+++ b/notes.md\n@@ -1,1 +1,1 @@\n-a\n+x\n+y\n+z\n'), [], 'a hunk longer than its header says is refused');
  assert.deepEqual(readPatch('not a patch'), []);
});

test('a patch names files relative to the repository, the change by absolute path: the exact or longest matching name wins', () => {
  const both = readPatch(`${gitPatch('notes.md', 'top\n', 'TOP\n')}${gitPatch('src/notes.md', 'a\n', 'b\n')}`);
  assert.equal(patchFor(both, '/work/repo/src/notes.md')?.name, 'src/notes.md');
  assert.equal(patchFor(both, '/work/repo/notes.md')?.name, 'notes.md');
  assert.equal(patchFor(both, 'src/notes.md')?.name, 'src/notes.md');
  assert.equal(patchFor(both, '/work/repo/xsrc/notes.txt'), undefined);
  assert.equal(patchFor(readPatch(gitPatch('app/notes.md', 'a\n', 'b\n')), '/work/repo/src/xapp/notes.md'), undefined, 'a longer name with the same ending is another file');
});
