import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codeBlockFile } from '../../src/presentation/codeBlockFile';

const BODY = 'export const a = 1;\n';

test('the fence info string names the file: after the language, after a colon, as a label, or alone', () => {
  assert.deepEqual(codeBlockFile('ts src/a.ts', BODY), { path: 'src/a.ts', code: BODY });
  assert.deepEqual(codeBlockFile('ts:src/a.ts', BODY), { path: 'src/a.ts', code: BODY });
  assert.deepEqual(codeBlockFile('ts title="src/a.ts"', BODY), { path: 'src/a.ts', code: BODY });
  assert.deepEqual(codeBlockFile('python filename=tools/run.py', BODY), { path: 'tools/run.py', code: BODY });
  assert.deepEqual(codeBlockFile('src/a.ts', BODY), { path: 'src/a.ts', code: BODY });
  assert.deepEqual(codeBlockFile('json package.json', '{}\n'), { path: 'package.json', code: '{}\n' });
});

test('a first-line comment names the file, and that line is not part of what is applied', () => {
  assert.deepEqual(codeBlockFile('ts', `// filepath: src/a.ts\n${BODY}`), { path: 'src/a.ts', code: BODY });
  assert.deepEqual(codeBlockFile('python', '# tools/run.py\nprint(1)\n'), { path: 'tools/run.py', code: 'print(1)\n' });
  assert.deepEqual(codeBlockFile('html', '<!-- file: index.html -->\n<p>hi</p>\n'), { path: 'index.html', code: '<p>hi</p>\n' });
  assert.deepEqual(codeBlockFile('c', '/* src/main.c */\nint main;\n'), { path: 'src/main.c', code: 'int main;\n' });
});

test('the same name in the info string and the first line is one file', () => {
  assert.deepEqual(codeBlockFile('ts src/a.ts', `// src/a.ts\n${BODY}`), { path: 'src/a.ts', code: BODY });
});

test('no file where it is not unambiguous', () => {
  assert.equal(codeBlockFile('ts', BODY), undefined, 'a language alone');
  assert.equal(codeBlockFile('', BODY), undefined, 'no info string');
  assert.equal(codeBlockFile('ts src/a.ts', `// src/b.ts\n${BODY}`), undefined, 'two different names');
  assert.equal(codeBlockFile('bash', '# Install the tools\nnpm ci\n'), undefined, 'a comment that is a sentence');
  assert.equal(codeBlockFile('bash', '# cd src/app\nnpm ci\n'), undefined, 'a comment with a command');
  assert.equal(codeBlockFile('bash', '# build\nnpm run build\n'), undefined, 'a bare word without an extension or folder');
  assert.equal(codeBlockFile('ts one two three', BODY), undefined, 'more words than a language and a path');
  assert.equal(codeBlockFile('ts my file.ts', BODY), undefined, 'a name with a space is two words');
  assert.equal(codeBlockFile('ts src/..', BODY), undefined, 'a folder, not a file');
  assert.equal(codeBlockFile('ts', 'const x = 1; // a.ts\n'), undefined, 'a trailing comment is code');
});
