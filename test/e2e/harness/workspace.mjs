// Workspace folders for tests: a fresh temp folder per test, filled from a { relativePath: content } map.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { makeTempDir, removeTempDir } from './tempDirs.mjs';

/**
 * @param {Record<string, string>} [files]
 * @returns {{ path: string, remove: () => void }}
 */
export function makeWorkspace(files = { 'README.md': '# Test workspace\n' }) {
  const path = makeTempDir('ws');
  for (const [relativePath, content] of Object.entries(files)) {
    const file = join(path, relativePath);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  return { path, remove: () => removeTempDir(path) };
}
