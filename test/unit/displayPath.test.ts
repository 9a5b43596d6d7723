// How the chat shows paths (src/presentation/displayPath.ts): relative inside the workspace, `~/…` under home,
// shortened elsewhere; file URIs decoded; the full path in the tooltip and only local files offered to open.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { changePath, displayPath, fileReference, workspaceFile, workspacePathsInText } from '../../src/presentation';
import type { WorkspaceRoots } from '../../src/protocol/webviewMessages';

const ONE: WorkspaceRoots = { folders: [{ name: 'proj', path: '/home/ann/proj' }], home: '/home/ann' };
const TWO: WorkspaceRoots = { folders: [{ name: 'web', path: '/home/ann/web' }, { name: 'api', path: '/srv/api' }], home: '/home/ann' };
const WIN: WorkspaceRoots = { folders: [{ name: 'proj', path: 'c:\\Users\\Ann\\proj' }], home: 'C:\\Users\\Ann' };

test('POSIX: inside the folder relative to it, the absolute path in the tooltip and as what is opened', () => {
  assert.deepEqual(displayPath('/home/ann/proj/src/a.ts', ONE), { text: 'src/a.ts', tooltip: '/home/ann/proj/src/a.ts', target: '/home/ann/proj/src/a.ts' });
  assert.deepEqual(displayPath('/home/ann/proj/src/a.ts', ONE, 12), { text: 'src/a.ts:12', tooltip: '/home/ann/proj/src/a.ts:12', target: '/home/ann/proj/src/a.ts', line: 12 });
  assert.equal(displayPath('/home/ann/proj', ONE).text, 'proj', 'the folder itself is named');
});

test('outside the workspace: under home as ~/…, elsewhere absolute, long paths shortened in the middle', () => {
  assert.deepEqual(displayPath('/home/ann/notes/todo.md', ONE), { text: '~/notes/todo.md', tooltip: '/home/ann/notes/todo.md', target: '/home/ann/notes/todo.md' });
  assert.equal(displayPath('/etc/hosts', ONE).text, '/etc/hosts');
  assert.equal(displayPath('/usr/lib/python3/dist-packages/requests/api.py', ONE).text, '/usr/…/dist-packages/requests/api.py');
  assert.equal(displayPath('/home/ann/a/b/c/d/e/f.ts', ONE).text, '~/a/…/d/e/f.ts');
  assert.equal(displayPath('/usr/lib/python3/dist-packages/requests/api.py', ONE).tooltip, '/usr/lib/python3/dist-packages/requests/api.py');
  // No roots known yet: the absolute path, shortened the same way.
  assert.equal(displayPath('/home/ann/proj/src/a.ts').text, '/home/ann/proj/src/a.ts');
});

test('a folder whose name starts like the workspace folder is not inside it', () => {
  assert.equal(displayPath('/home/ann/proj-evil/x.ts', ONE).text, '~/proj-evil/x.ts');
  assert.equal(displayPath('/home/ann/project/x.ts', ONE).text, '~/project/x.ts');
});

test('.. is resolved before the folder is compared: a path that climbs out is shown (and opened) where it leads', () => {
  const out = displayPath('/home/ann/proj/../../../etc/passwd', ONE);
  assert.deepEqual(out, { text: '/etc/passwd', tooltip: '/etc/passwd', target: '/etc/passwd' });
  assert.equal(displayPath('/home/ann/proj/src/../lib/./b.ts', ONE).text, 'lib/b.ts');
  assert.equal(displayPath('/../../home/ann/proj/a.ts', ONE).text, 'a.ts', '.. never climbs above the root');
  // A relative path is the agent's words; it is not made to look like a workspace path.
  assert.deepEqual(displayPath('../../etc/passwd', ONE), { text: '../../etc/passwd', tooltip: '../../etc/passwd', target: '../../etc/passwd' });
  assert.deepEqual(displayPath('./src//a.ts', ONE, 3), { text: 'src/a.ts:3', tooltip: 'src/a.ts:3', target: './src//a.ts', line: 3 });
});

test('several folders: the folder name comes first, as VS Code writes workspace-relative paths; nested folders pick the innermost', () => {
  assert.equal(displayPath('/home/ann/web/index.html', TWO).text, 'web/index.html');
  assert.equal(displayPath('/srv/api/main.go', TWO).text, 'api/main.go');
  assert.equal(displayPath('/home/ann/other.txt', TWO).text, '~/other.txt');
  const nested: WorkspaceRoots = { folders: [{ name: 'mono', path: '/m' }, { name: 'pkg', path: '/m/packages/pkg' }] };
  assert.equal(displayPath('/m/packages/pkg/src/x.ts', nested).text, 'pkg/src/x.ts');
  assert.equal(displayPath('/m/README.md', nested).text, 'mono/README.md');
});

test('file URIs are decoded (%20, %23), their #L fragments become lines; the URI itself is never shown', () => {
  assert.deepEqual(displayPath('file:///home/ann/proj/my%20notes/a%23b.md', ONE), {
    text: 'my notes/a#b.md',
    tooltip: '/home/ann/proj/my notes/a#b.md',
    target: '/home/ann/proj/my notes/a#b.md',
  });
  assert.deepEqual(displayPath('file:///home/ann/proj/src/a.ts#L3:5', ONE), { text: 'src/a.ts:3-5', tooltip: '/home/ann/proj/src/a.ts:3-5', target: '/home/ann/proj/src/a.ts', line: 3 });
  assert.equal(displayPath('file:///home/ann/proj/src/a.ts#L7', ONE).line, 7);
  assert.equal(displayPath('file://localhost/home/ann/proj/a.ts', ONE).text, 'a.ts');
  assert.equal(displayPath('file:///home/ann/proj/%2E%2E/%2E%2E/x', ONE).text, '/home/x', 'encoded .. is resolved after decoding');
});

test('a broken escape, another scheme or a network path is shown as text with nothing to open', () => {
  assert.deepEqual(displayPath('file:///home/ann/proj/%E0%A4%A', ONE), { text: 'file:///home/ann/proj/%E0%A4%A', tooltip: 'file:///home/ann/proj/%E0%A4%A' });
  assert.deepEqual(displayPath('https://example.com/a.ts', ONE), { text: 'https://example.com/a.ts', tooltip: 'https://example.com/a.ts' });
  const unc = displayPath('file://server/share/x.txt', ONE);
  assert.equal(unc.target, undefined);
  assert.equal(unc.tooltip, '//server/share/x.txt');
  assert.equal(displayPath('\\\\server\\share\\x.txt', WIN).target, undefined);
  assert.equal(displayPath('//server/share/x.txt', ONE).target, undefined);
  assert.equal(displayPath('\\\\?\\C:\\x.txt', WIN).target, undefined, 'a device path is not opened either');
});

test('Windows: drive letters and separators in either form, compared without case; relative text uses forward slashes', () => {
  assert.deepEqual(displayPath('C:\\Users\\Ann\\proj\\src\\a.ts', WIN), { text: 'src/a.ts', tooltip: 'C:\\Users\\Ann\\proj\\src\\a.ts', target: 'C:\\Users\\Ann\\proj\\src\\a.ts' });
  assert.equal(displayPath('c:/users/ann/PROJ/src/a.ts', WIN).text, 'src/a.ts');
  assert.equal(displayPath('file:///c%3A/Users/Ann/proj/b.ts', WIN).text, 'b.ts');
  assert.equal(displayPath('file:///C:/Users/Ann/Documents/x.docx', WIN).text, '~\\Documents\\x.docx');
  assert.equal(displayPath('D:\\data\\x.csv', WIN).text, 'D:\\data\\x.csv');
  // A POSIX path never matches a Windows folder, nor the other way round.
  assert.equal(displayPath('/Users/Ann/proj/a.ts', WIN).text, '/Users/Ann/proj/a.ts');
});

test('bidi and control characters in a path are made visible, in the text and the tooltip', () => {
  const shown = displayPath('/home/ann/proj/evil\u202Etxt.exe', ONE);
  assert.equal(shown.text, 'evil⟪U+202E⟫txt.exe');
  assert.match(shown.tooltip, /⟪U\+202E⟫/);
  assert.equal(displayPath('/home/ann/proj/a\nb', ONE).text, 'a b');
});

test('a workspace-relative prompt path turns back into the absolute path (the folder name picks the folder)', () => {
  assert.equal(workspaceFile('src/a.ts', ONE), '/home/ann/proj/src/a.ts');
  assert.equal(workspaceFile('api/main.go', TWO), '/srv/api/main.go');
  assert.equal(workspaceFile('lib/x.ts', TWO), '/home/ann/web/lib/x.ts', 'no folder of that name: the first folder');
  assert.equal(workspaceFile('src/a.ts', WIN), 'C:\\Users\\Ann\\proj\\src\\a.ts');
  assert.equal(workspaceFile('src/a.ts', { folders: [] }), undefined);
});

test('paths in a tool call title are written relative when inside the workspace; everything else stays', () => {
  assert.equal(workspacePathsInText('Read /home/ann/proj/src/a.ts', ONE), 'Read src/a.ts');
  assert.equal(workspacePathsInText('Edit `/home/ann/proj/src/a.ts`', ONE), 'Edit `src/a.ts`');
  assert.equal(workspacePathsInText('Copy /home/ann/proj/a.ts to /tmp/a.ts.', ONE), 'Copy a.ts to /tmp/a.ts.');
  assert.equal(workspacePathsInText('grep -r foo file:///home/ann/proj/src', ONE), 'grep -r foo src');
  assert.equal(workspacePathsInText('see https://x.org/home/ann/proj/a', ONE), 'see https://x.org/home/ann/proj/a', 'a URL path is not a file path');
  assert.equal(workspacePathsInText('Read C:\\Users\\Ann\\proj\\a.ts', WIN), 'Read a.ts');
  assert.equal(workspacePathsInText('Read /home/ann/proj/a.ts', { folders: [] }), 'Read /home/ann/proj/a.ts');
});

test('inline agent text names a file when it is a file URI or an absolute path in the workspace or home', () => {
  assert.deepEqual(fileReference('/home/ann/proj/src/a.ts:42', ONE), { path: '/home/ann/proj/src/a.ts', line: 42 });
  assert.deepEqual(fileReference('/home/ann/proj/src/a.ts:42:7', ONE), { path: '/home/ann/proj/src/a.ts', line: 42 });
  assert.deepEqual(fileReference('/home/ann/proj/src/a.ts#L42', ONE), { path: '/home/ann/proj/src/a.ts', line: 42 }, 'a link\'s #L fragment');
  assert.deepEqual(fileReference('file:///home/ann/proj/a%20b.ts#L3:5', ONE), { path: 'file:///home/ann/proj/a%20b.ts', line: 3 });
  assert.deepEqual(fileReference('~/x', ONE), undefined);
  assert.deepEqual(fileReference('/home/ann/.bashrc', ONE), { path: '/home/ann/.bashrc' });
  assert.deepEqual(fileReference('file:///etc/hosts', ONE), { path: 'file:///etc/hosts' });
  assert.equal(fileReference('/api/users', ONE), undefined, 'a route is no file');
  assert.equal(fileReference('/usr/bin/env node', ONE), undefined);
  assert.equal(fileReference('src/a.ts', ONE), undefined);
  assert.equal(fileReference('//server/share/a', ONE), undefined);
});

test('changePath (the Markdown export) keeps its rule: under the session folder relative, else as reported', () => {
  assert.equal(changePath('/work/sub/a.md', '/work'), 'sub/a.md');
  assert.equal(changePath('/work-other/a.md', '/work'), '/work-other/a.md');
  assert.equal(changePath('C:\\w\\x\\a.md', 'c:\\w'), 'x/a.md');
});
