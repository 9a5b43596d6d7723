// "Check Agent": start an agent exactly as a session would, send `initialize` only, stop it again (its whole
// process group) and say what it answered. No vscode here; the command shows the result.
import type { InitializeResponse } from '@agentclientprotocol/sdk/unstable';
import { AgentConnection } from '../acp/agentConnection';
import type { AgentConfig } from '../acp/agentProcess';
import type { ClientHost } from '../acp/clientHost';
import { ClientRequestError } from '../acp/errors';
import { describeCheckFailure, describeInitialize, type AgentCheckReport } from './agentCheckReport';

export const CHECK_TIMEOUT_MS = 30_000;

export interface AgentCheckOptions {
  /** Where the process runs unless the agent names its own `processCwd` (as for a session). */
  readonly cwd: string;
  readonly timeoutMs?: number;
  readonly baseEnv?: NodeJS.ProcessEnv;
  readonly log?: (text: string) => void;
}

export type AgentCheckResult =
  | { readonly ok: true; readonly report: AgentCheckReport; readonly response: InitializeResponse; readonly pid: number | undefined }
  | { readonly ok: false; readonly report: AgentCheckReport; readonly error: unknown; readonly pid: number | undefined };

/** Nothing but `initialize` is sent, so nothing should be asked; anything that is gets refused. */
const REFUSING_HOST: ClientHost = {
  requestPermission: async () => ({ outcome: 'cancelled' }),
  readTextFile: async () => {
    throw new ClientRequestError(-32603, 'Subchats is only checking this agent');
  },
  writeTextFile: async () => {
    throw new ClientRequestError(-32603, 'Subchats is only checking this agent');
  },
};

const STOP_GRACE_MS = 1000;

export async function checkAgent(agent: AgentConfig, options: AgentCheckOptions): Promise<AgentCheckResult> {
  const connection = AgentConnection.spawn({
    agent,
    cwd: options.cwd,
    host: REFUSING_HOST,
    workspaceFolders: () => [],
    initializeTimeoutMs: options.timeoutMs ?? CHECK_TIMEOUT_MS,
    stopGraceMs: STOP_GRACE_MS,
    ...(options.baseEnv ? { baseEnv: options.baseEnv } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  const gone = new Promise<void>((resolve) => {
    if (!connection.process.running) resolve();
    connection.onDidExit(() => resolve());
  });
  const pid = connection.process.pid;
  try {
    const response = await connection.initialize();
    return { ok: true, report: describeInitialize(agent, response), response, pid };
  } catch (error) {
    return { ok: false, report: describeCheckFailure(agent, error, connection.stderrTail), error, pid };
  } finally {
    connection.dispose();
    await gone;
  }
}
