// `npm run lint` runs knip (knip.json): an export nobody imports is reported. A probe entry file (tests are
// entries) imports one of two names a probe module exports; knip must name the other.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';

const root = join(import.meta.dirname, '../..');
const probeModule = join(root, 'src/store/__deadExportProbe.ts');
const probeEntry = join(root, 'test/unit/__deadExportProbeEntry.ts');

after(() => {
  rmSync(probeModule, { force: true });
  rmSync(probeEntry, { force: true });
});

test('knip reports an export that nothing imports, and only that one', () => {
  writeFileSync(probeModule, 'export const usedProbe = 1;\nexport function unusedProbe(): number {\n  return 2;\n}\n');
  writeFileSync(probeEntry, "import { usedProbe } from '../../src/store/__deadExportProbe';\nexport default usedProbe;\n");
  let output = '';
  try {
    output = execFileSync(process.execPath, [join(root, 'node_modules/knip/bin/knip.js'), '--no-progress', '--reporter', 'json'], { cwd: root, encoding: 'utf8' });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? ''); // knip exits 1 when it finds something
  }
  const issues = (JSON.parse(output) as { issues: Array<{ file: string; exports: Array<{ name: string }> }> }).issues;
  const probe = issues.find((issue) => issue.file === 'src/store/__deadExportProbe.ts');
  assert.deepEqual(probe?.exports.map((e) => e.name), ['unusedProbe']);
});
