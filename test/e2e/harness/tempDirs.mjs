// Short-lived temp folders (/tmp keeps unix socket paths short) that are removed even when a test
// process is interrupted: signals become a normal exit so the 'exit' hook below runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const liveDirs = new Set();
const signalExitCodes = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
for (const [signal, code] of Object.entries(signalExitCodes)) process.once(signal, () => process.exit(code));

let exitHookInstalled = false;
// Installed on first use, i.e. after the module-level hook that kills code-server was registered
// (exit listeners run in order), so the folders are removed once nothing writes to them any more.
function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const dir of liveDirs) removeQuietly(dir);
  });
}

export function makeTempDir(prefix) {
  installExitHook();
  const dir = mkdtempSync(join(tmpdir(), `subchats-e2e-${prefix}-`));
  liveDirs.add(dir);
  return dir;
}

export function removeTempDir(dir) {
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  liveDirs.delete(dir);
}

// An exception in an exit hook would be swallowed by node:test's uncaughtException handler and
// keep the process alive, so a folder that is still being written to is left behind instead.
function removeQuietly(dir) {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    // best effort
  }
}
