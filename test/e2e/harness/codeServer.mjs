// A throwaway code-server per test file: fresh state in a short temp folder, removed on stop().
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  repoRoot,
  startCodeServer as startServer,
  waitFor,
  workbenchUrl,
} from '../../../scripts/code-server/codeServer.mjs';
import { makeTempDir, removeTempDir } from './tempDirs.mjs';

export { repoRoot };

/**
 * @param {{ workspace?: string, settings?: Record<string, unknown>, extensionsDir?: string, workspaceTrust?: boolean }} [options]
 *   extensionsDir: where installed extensions live (default: a fresh folder inside the server's state)
 * @returns {Promise<{ baseUrl: string, workspace?: string, stateDir: string, logFile: string,
 *   url: (payload?: { folder?: string, extensionDevelopmentPath?: string | null, extensionTestsPath?: string }) => string,
 *   logText: () => string, waitForLog: (text: string, timeoutMs?: number) => Promise<void>,
 *   stop: () => Promise<void> }>}
 */
export async function startCodeServer({ workspace, settings, extensionsDir, workspaceTrust } = {}) {
  const stateDir = makeTempDir('cs');
  let server;
  try {
    server = await startServer({ stateDir, workspace, settings, extensionsDir, workspaceTrust });
  } catch (error) {
    removeTempDir(stateDir);
    throw error;
  }
  return {
    baseUrl: server.baseUrl,
    workspace,
    stateDir,
    logFile: server.logFile,
    // The extension under test is this repo, loaded as a development extension unless told otherwise.
    url: ({ folder = workspace, extensionDevelopmentPath = repoRoot, extensionTestsPath } = {}) =>
      workbenchUrl(server.baseUrl, {
        folder,
        extensionDevelopmentPath: extensionDevelopmentPath ?? undefined,
        extensionTestsPath,
      }),
    logText: () => readServerLogs(stateDir),
    /** Waits until code-server's own log or its server-side VS Code logs contain `text`. */
    waitForLog: async (text, timeoutMs = 30_000) => {
      if (!(await waitFor(() => readServerLogs(stateDir).includes(text), timeoutMs, 100))) {
        throw new Error(`code-server logs did not mention ${JSON.stringify(text)} within ${timeoutMs} ms`);
      }
    },
    stop: async () => {
      await server.stop();
      removeTempDir(stateDir);
    },
  };
}

/**
 * The server-side VS Code log files (remote agent, extension host, output channels) under user-data/logs whose
 * path there ends with `suffix`, sorted; none while nothing is written yet.
 * @param {string} stateDir
 * @param {string} suffix
 */
export function serverLogFiles(stateDir, suffix) {
  const logsDir = join(stateDir, 'user-data/logs');
  try {
    return readdirSync(logsDir, { recursive: true })
      .map(String)
      .filter((file) => file.endsWith(suffix))
      .sort()
      .map((file) => join(logsDir, file));
  } catch {
    return []; // not written yet
  }
}

/** code-server.log plus the server-side VS Code logs (remote agent, extension host) under user-data/logs. */
function readServerLogs(stateDir) {
  return [join(stateDir, 'code-server.log'), ...serverLogFiles(stateDir, '.log')]
    .map((file) => {
      try {
        return readFileSync(file, 'utf8');
      } catch {
        return '';
      }
    })
    .join('\n');
}
