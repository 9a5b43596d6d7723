// Open Changes for ACP v2 diffs, which carry git patches and no texts: the text after is the file as it is,
// the text before is that with the session's patches undone, and a patch that no longer applies says so.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gitPatch } from '../../src/demoAgent/v2Wire';
import { textsBeforePatches } from '../../src/host/patchedTexts';

const FILE = '/work/repo/notes.md';

/** A patch with context lines, as git writes it: only the second line changes. */
const CONTEXT_PATCH = ['diff --git a/notes.md b/notes.md', 'index 1..2 100644', '--- a/notes.md', '+++ b/notes.md', '@@ -1,3 +1,3 @@', ' # Notes', '-draft', '+final', ' end', ''].join('\n');

test('a modified file: the text before is the current text with the patch undone', () => {
  assert.deepEqual(textsBeforePatches('# Notes\nfinal\nend\n', [CONTEXT_PATCH], FILE), { before: '# Notes\ndraft\nend\n', after: '# Notes\nfinal\nend\n' });
});

test('two successive patches are undone newest first, back to the text before the first', () => {
  const first = gitPatch(FILE, 'one\n', 'two\n');
  const second = gitPatch(FILE, 'two\n', 'three\nfour\n');
  assert.deepEqual(textsBeforePatches('three\nfour\n', [first, second], FILE), { before: 'one\n', after: 'three\nfour\n' });
});

test('a file a patch created has no text before; a deleted one has no text after', () => {
  assert.deepEqual(textsBeforePatches('hello\n', [gitPatch(FILE, null, 'hello\n')], FILE), { before: null, after: 'hello\n' });
  const deletion = ['diff --git a/notes.md b/notes.md', 'deleted file mode 100644', '--- a/notes.md', '+++ /dev/null', '@@ -1,2 +0,0 @@', '-bye', '-now', ''].join('\n');
  assert.deepEqual(textsBeforePatches(null, [deletion], FILE), { before: 'bye\nnow\n', after: '' });
});

test('a file changed since the agent\'s edit, a missing file, a patch about another file and an unreadable patch give a reason, not a guess', () => {
  assert.deepEqual(textsBeforePatches('# Notes\nedited by hand\nend\n', [CONTEXT_PATCH], FILE), { problem: 'the file changed after the agent\'s edit, so its patch no longer applies' });
  assert.deepEqual(textsBeforePatches(null, [CONTEXT_PATCH], FILE), { problem: 'the file no longer exists' });
  assert.deepEqual(textsBeforePatches('x\n', [gitPatch('/work/repo/other.md', 'a\n', 'x\n')], FILE), { problem: 'the agent\'s patch does not name this file' });
  const unreadable = textsBeforePatches('x\n', ['--- a/notes.md\n+++ b/notes.md\n@@ -1,1 +1,1 @@\n-a\n+x\n+y\n+z\n'], FILE);
  assert.ok('problem' in unreadable, 'a hunk longer than its header says is refused');
});

test('a patch names files relative to the repository; the change names them absolute; a longer name with the same ending is another file', () => {
  const nested = gitPatch('src/app/notes.md', 'a\n', 'b\n').replaceAll('src/app/', 'app/');
  assert.deepEqual(textsBeforePatches('b\n', [nested], '/work/repo/src/app/notes.md'), { before: 'a\n', after: 'b\n' });
  assert.deepEqual(textsBeforePatches('b\n', [nested], '/work/repo/src/xapp/notes.md'), { problem: 'the agent\'s patch does not name this file' });
});
