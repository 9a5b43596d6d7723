// "Check Agent": start an agent exactly as a session would (offering the ACP version(s) the setting chooses),
// send `initialize` only, stop it again (its whole process group) and say what it answered. No vscode here;
// the command shows the result.
import type { InitializeResponse } from '@agentclientprotocol/sdk/unstable';
import { AgentConnection } from '../acp/agentConnection';
import type { ProtocolVersion } from '../acp/agentFeatures';
import type { AgentConfig } from '../acp/agentProcess';
import { versionsToOffer, type ProtocolSetting } from '../acp/capabilities';
import type { ClientHost } from '../acp/clientHost';
import { ClientRequestError } from '../acp/errors';
import { ErrorCodes } from 'vscode-jsonrpc/node';
import { restartAfter } from '../acp/protocolFallback';
import { describeCheckFailure, describeInitialize, type AgentCheckReport } from './agentCheckReport';

const CHECK_TIMEOUT_MS = 30_000;

export interface AgentCheckOptions {
  /** Where the process runs unless the agent names its own `processCwd` (as for a session). */
  readonly cwd: string;
  readonly timeoutMs?: number;
  readonly baseEnv?: NodeJS.ProcessEnv;
  readonly log?: (text: string) => void;
  /** Setting `subchats.protocolVersion`: which ACP version(s) to offer, as a session start does (default 1). */
  readonly protocol?: ProtocolSetting;
}

interface AgentCheckRun {
  /** The versions offered, in order: more than one when the agent was restarted to offer the next. */
  readonly offered: readonly ProtocolVersion[];
  /** The process that gave the answer (the last one started). */
  readonly pid: number | undefined;
  /** Every process started, each stopped before the next one started. */
  readonly pids: readonly (number | undefined)[];
}

export type AgentCheckResult =
  | ({ readonly ok: true; readonly report: AgentCheckReport; readonly response: InitializeResponse } & AgentCheckRun)
  | ({ readonly ok: false; readonly report: AgentCheckReport; readonly error: unknown } & AgentCheckRun);

/** Nothing but `initialize` is sent, so nothing should be asked; anything that is gets refused. */
const REFUSING_HOST: ClientHost = {
  requestPermission: async () => ({ outcome: 'cancelled' }),
  readTextFile: async () => {
    throw new ClientRequestError(ErrorCodes.InternalError, 'Subchats is only checking this agent');
  },
  writeTextFile: async () => {
    throw new ClientRequestError(ErrorCodes.InternalError, 'Subchats is only checking this agent');
  },
};

const STOP_GRACE_MS = 1000;

/**
 * Offers the versions the setting chooses as a session start does (restarting the agent to offer the next one
 * when `restartAfter` says so), each process stopped before the next starts; reports the last answer.
 */
export async function checkAgent(agent: AgentConfig, options: AgentCheckOptions): Promise<AgentCheckResult> {
  const versions = versionsToOffer(options.protocol ?? 1);
  const pids: (number | undefined)[] = [];
  for (let attempt = 0; ; attempt++) {
    const offered = versions.slice(0, attempt + 1);
    const once = await initializeOnce(agent, options, versions[attempt]!);
    pids.push(once.pid);
    const restart = restartAfter(versions, attempt, 'response' in once ? { answered: once.answered } : { error: once.error });
    if (restart) {
      options.log?.(`[${agent.name}] ${restart.why}`);
      continue;
    }
    const run = { offered, pid: once.pid, pids };
    return 'response' in once
      ? { ok: true, report: describeInitialize(agent, once.response, offered), response: once.response, ...run }
      : { ok: false, report: describeCheckFailure(agent, once.error, once.stderrTail, offered), error: once.error, ...run };
  }
}

type InitializeOnce = { readonly pid: number | undefined } & ({ readonly response: InitializeResponse; readonly answered: ProtocolVersion } | { readonly error: unknown; readonly stderrTail: string });

/** One agent process offered one version: started, asked `initialize`, and gone again when this resolves. */
async function initializeOnce(agent: AgentConfig, options: AgentCheckOptions, protocolVersion: ProtocolVersion): Promise<InitializeOnce> {
  const connection = AgentConnection.spawn({
    agent,
    cwd: options.cwd,
    host: REFUSING_HOST,
    workspaceFolders: () => [],
    initializeTimeoutMs: options.timeoutMs ?? CHECK_TIMEOUT_MS,
    stopGraceMs: STOP_GRACE_MS,
    protocolVersion,
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
    return { pid, response, answered: connection.protocolVersion };
  } catch (error) {
    return { pid, error, stderrTail: connection.stderrTail };
  } finally {
    connection.dispose();
    await gone;
  }
}
