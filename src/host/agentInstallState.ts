// Whether a configured agent can start here, as the New Session picker shows it: a command given as a path must
// exist; a bare command (npx, uvx, gemini, …) must be found on PATH. Reads the disk only, runs nothing.
import { statSync } from 'node:fs';
import * as path from 'node:path';
import type { AgentConfig } from '../acp/agentProcess';
import { t } from '../presentation';

export interface InstallState {
  readonly ready: boolean;
  /** In words: "npx found on PATH", "not installed: gemini is not on PATH". */
  readonly note: string;
}

function isFile(candidate: string): boolean {
  try {
    return statSync(candidate).isFile();
  } catch {
    return false;
  }
}

/** The executable names to try (Windows adds PATHEXT's extensions). */
function candidates(command: string, platform: string, env: NodeJS.ProcessEnv): string[] {
  if (platform !== 'win32' || path.extname(command)) return [command];
  const extensions = (env['PATHEXT'] ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean);
  return [command, ...extensions.map((extension) => command + extension.toLowerCase()), ...extensions.map((extension) => command + extension)];
}

export function onPath(command: string, env: NodeJS.ProcessEnv = process.env, platform: string = process.platform): boolean {
  const dirs = (env['PATH'] ?? env['Path'] ?? '').split(platform === 'win32' ? ';' : path.delimiter).filter(Boolean);
  return dirs.some((dir) => candidates(command, platform, env).some((name) => isFile(path.join(dir, name))));
}

export function installState(agent: Pick<AgentConfig, 'command' | 'builtIn'>, env: NodeJS.ProcessEnv = process.env, platform: string = process.platform): InstallState {
  if (agent.builtIn) return { ready: true, note: t('built in') };
  const command = agent.command;
  if (path.isAbsolute(command) || command.includes('/') || (platform === 'win32' && command.includes('\\'))) {
    return isFile(command) ? { ready: true, note: t('installed') } : { ready: false, note: t('not installed: {0} is missing', path.basename(command)) };
  }
  return onPath(command, env, platform) ? { ready: true, note: t('{0} found on PATH', command) } : { ready: false, note: t('not installed: {0} is not on PATH', command) };
}
