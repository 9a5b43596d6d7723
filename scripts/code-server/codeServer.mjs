// Starts and stops a private code-server (real VS Code 1.100 in the browser) for the tests and `npm start`.
// Everything it writes (user data, XDG dirs, sockets) stays inside one state folder, it listens on
// 127.0.0.1 only, and it runs in its own process group so stopping it leaves no orphans.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const codeServerDir = process.env.SUBCHATS_CODE_SERVER_DIR ?? join(repoRoot, '.cache/code-server');

/** Settings that keep the workbench quiet and offline: no walkthrough, trust dialog, telemetry or update checks. */
export const baseSettings = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'chat.disableAIFeatures': true,
  'git.enabled': false,
};

// Servers run detached, so they would outlive a runner that exits early; this takes them down with it.
// SIGKILL because an exit hook cannot wait, and an extension host that is still starting outlives SIGTERM.
const runningGroups = new Set();
process.on('exit', () => {
  for (const pgid of runningGroups) signalGroup(pgid, 'SIGKILL');
});

const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;
// Unix socket paths are limited to 107 bytes; the extension host puts `vscode-ipc-<uuid>.sock` in TMPDIR.
const MAX_TMPDIR_LENGTH = 60;

export function codeServerBin() {
  const bin = join(codeServerDir, 'node_modules/.bin/code-server');
  if (!existsSync(bin)) {
    throw new Error(`code-server is not installed in ${codeServerDir}; run: bash scripts/install-deps.sh`);
  }
  return bin;
}

/**
 * @param {object} options
 * @param {string} options.stateDir folder for user data, XDG dirs, logs and the pid file (created)
 * @param {string} [options.workspace] folder opened when the browser asks for no folder
 * @param {Record<string, unknown>} [options.settings] user settings on top of `baseSettings`
 * @param {string} [options.extensionsDir] defaults to `<stateDir>/extensions`
 * @param {number} [options.port] 0 (default) lets the OS pick a free port
 * @param {boolean} [options.workspaceTrust] keep VS Code's workspace trust on (default off), to test restricted mode
 * @returns {Promise<{ baseUrl: string, port: number, pid: number, logFile: string,
 *   exited: Promise<number | string>, stop: () => Promise<void> }>} `exited` settles when code-server's own process ends
 */
export async function startCodeServer({ stateDir, workspace, settings = {}, extensionsDir, port = 0, workspaceTrust = false }) {
  const bin = codeServerBin();
  stateDir = resolve(stateDir);
  mkdirSync(stateDir, { recursive: true });
  const pidFile = join(stateDir, 'code-server.pid');
  await stopStaleServer(pidFile);

  const userDataDir = join(stateDir, 'user-data');
  extensionsDir = resolve(extensionsDir ?? join(stateDir, 'extensions'));
  mkdirSync(extensionsDir, { recursive: true });
  writeUserSettings(userDataDir, { ...baseSettings, ...settings });
  const { path: tmpDir, owned: ownsTmpDir } = shortTmpDir(stateDir);

  const logFile = join(stateDir, 'code-server.log');
  const logFd = openSync(logFile, 'w');
  const args = [
    '--bind-addr', `127.0.0.1:${port}`,
    '--auth', 'none',
    '--disable-telemetry',
    '--disable-update-check',
    ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    '--disable-proxy',
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
    '--ignore-last-opened',
  ];
  if (workspace) args.push(resolve(workspace));
  // detached = setsid(): code-server leads a new process group, so its pid is the group id.
  const child = spawn(bin, args, {
    cwd: stateDir,
    detached: true,
    stdio: ['ignore', logFd, logFd],
    env: {
      ...process.env,
      XDG_CONFIG_HOME: join(stateDir, 'xdg/config'),
      XDG_DATA_HOME: join(stateDir, 'xdg/data'),
      XDG_CACHE_HOME: join(stateDir, 'xdg/cache'),
      TMPDIR: tmpDir,
      EXTENSIONS_GALLERY: '{}',
    },
  });
  closeSync(logFd);
  child.unref();
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start ${bin}`);
  writeFileSync(pidFile, `${pid}\n`);
  runningGroups.add(pid);
  const exited = new Promise((done) => child.once('exit', (code, signal) => done(code ?? signal)));

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await stopProcessGroup(pid);
    runningGroups.delete(pid);
    rmSync(pidFile, { force: true });
    if (ownsTmpDir) rmSync(tmpDir, { recursive: true, force: true });
  };

  try {
    const listening = await waitForListening(logFile, exited);
    const baseUrl = `http://127.0.0.1:${listening}/`;
    await waitForHealthy(baseUrl);
    return { baseUrl, port: listening, pid, logFile, exited, stop };
  } catch (error) {
    await stop();
    throw new Error(`${error instanceof Error ? error.message : error}\n--- ${logFile} ---\n${readFileSync(logFile, 'utf8')}`);
  }
}

/**
 * The workbench URL for a folder. `payload` is how code-server takes what desktop VS Code gets as
 * --extensionDevelopmentPath / --extensionTestsPath (it rejects those flags on its command line).
 * @param {string} baseUrl
 * @param {{ folder?: string, extensionDevelopmentPath?: string, extensionTestsPath?: string }} [options]
 */
export function workbenchUrl(baseUrl, { folder, extensionDevelopmentPath, extensionTestsPath } = {}) {
  const url = new URL(baseUrl);
  if (folder) url.searchParams.set('folder', resolve(folder));
  const remote = (path) => `vscode-remote://${url.host}${resolve(path)}`;
  const payload = [];
  if (extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(extensionDevelopmentPath)]);
  if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
  if (payload.length > 0) url.searchParams.set('payload', JSON.stringify(payload));
  return url.toString();
}

/** SIGTERM to the whole group, then SIGKILL if it has not gone within STOP_TIMEOUT_MS. */
export async function stopProcessGroup(pgid) {
  if (!signalGroup(pgid, 'SIGTERM')) return;
  const gone = await waitFor(() => !groupAlive(pgid), STOP_TIMEOUT_MS);
  if (!gone) {
    signalGroup(pgid, 'SIGKILL');
    await waitFor(() => !groupAlive(pgid), STOP_TIMEOUT_MS);
  }
}

/**
 * Writes the settings as user settings and as the machine's (remote) settings. A code-server window is a
 * remote window: once an extension's settings schema is known, a setting of `machine` scope (such as
 * `subchats.agents`) is read from the machine's settings only, as a VS Code Remote user sets it under
 * Remote; from user settings it counts only until the schema arrives.
 */
function writeUserSettings(userDataDir, settings) {
  writeSettingsFile(join(userDataDir, 'User/settings.json'), settings);
  writeSettingsFile(join(userDataDir, 'Machine/settings.json'), settings);
}

function writeSettingsFile(file, settings) {
  mkdirSync(dirname(file), { recursive: true });
  let existing = {};
  if (existsSync(file)) {
    try {
      existing = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      return; // hand-edited JSONC from an earlier run: leave the user's file alone
    }
  }
  writeFileSync(file, `${JSON.stringify({ ...existing, ...settings }, null, 2)}\n`);
}

function shortTmpDir(stateDir) {
  const preferred = join(stateDir, 'tmp');
  if (preferred.length <= MAX_TMPDIR_LENGTH) {
    mkdirSync(preferred, { recursive: true });
    return { path: preferred, owned: false };
  }
  return { path: mkdtempSync(join(tmpdir(), 'subchats-cs-')), owned: true };
}

/** A previous run killed with SIGKILL leaves its server running; only kill it if the pid is still code-server. */
async function stopStaleServer(pidFile) {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  rmSync(pidFile, { force: true });
  if (!Number.isInteger(pid) || pid <= 1) return;
  let cmdline = '';
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return;
  }
  if (cmdline.includes('code-server')) await stopProcessGroup(pid);
}

async function waitForListening(logFile, exited) {
  let exitCode = null;
  void exited.then((code) => {
    exitCode = code;
  });
  let port;
  const ready = await waitFor(() => {
    if (exitCode !== null) throw new Error(`code-server exited early (${exitCode})`);
    const match = /HTTP server listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(readFileSync(logFile, 'utf8'));
    port = match ? Number(match[1]) : undefined;
    return port !== undefined;
  }, READY_TIMEOUT_MS);
  if (!ready) throw new Error(`code-server did not listen within ${READY_TIMEOUT_MS} ms`);
  return port;
}

async function waitForHealthy(baseUrl) {
  const healthy = await waitFor(async () => {
    try {
      return (await fetch(new URL('healthz', baseUrl))).ok;
    } catch {
      return false;
    }
  }, READY_TIMEOUT_MS);
  if (!healthy) throw new Error(`${baseUrl}healthz did not answer within ${READY_TIMEOUT_MS} ms`);
}

function signalGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is already gone
  }
}

function groupAlive(pgid) {
  return signalGroup(pgid, 0);
}

/** Polls `condition` until it is truthy (true) or `timeoutMs` passes (false). */
export async function waitFor(condition, timeoutMs, intervalMs = 50) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((done) => setTimeout(done, intervalMs));
  }
}
