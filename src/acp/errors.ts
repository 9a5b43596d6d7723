// Typed, readable errors for everything the ACP connection layer refuses or reports.
import { ErrorCodes } from 'vscode-jsonrpc/node';
import { AcpErrorCodes } from '../protocol/acpErrorCodes';

/** How the agent process ended. */
export interface AgentExit {
  readonly code: number | null;
  readonly signal: string | null;
  /** The last part of what the agent wrote to stderr (often the real reason for a crash). */
  readonly stderrTail: string;
  /** One readable sentence, e.g. `Agent "Claude" exited with code 1` or why it could not start. */
  readonly description: string;
}

abstract class AcpError extends Error {
  abstract readonly kind: string;
}

/** The agent command could not be started at all (missing binary, bad cwd, ...). */
export class AgentStartError extends AcpError {
  readonly kind = 'agent-start';
  /** The system's error code, e.g. `ENOENT` for a command that is not there. */
  readonly code: string | undefined;
  constructor(agentName: string, command: string, cause: Error & { code?: string }) {
    const hint = cause.code === 'ENOENT' ? ` — is "${command}" installed and on PATH?` : '';
    super(`Could not start agent "${agentName}" (${command}): ${cause.message}${hint}`);
    this.code = cause.code;
    this.name = 'AgentStartError';
  }
}

/** The agent process went away while something was still waiting for it. */
export class AgentExitedError extends AcpError {
  readonly kind = 'agent-exited';
  constructor(
    agentName: string,
    readonly exit: AgentExit,
    waitingFor?: string,
  ) {
    super(`${exit.description}${waitingFor ? ` while waiting for ${waitingFor}` : ''}.${stderrSuffix(exit.stderrTail)}`);
    this.name = 'AgentExitedError';
  }
}

/** The connection was closed by us (dispose) before or while a request was in flight. */
export class ConnectionClosedError extends AcpError {
  readonly kind = 'connection-closed';
  constructor(agentName: string, method: string) {
    super(`Cannot send ${method}: the connection to agent "${agentName}" is closed.`);
    this.name = 'ConnectionClosedError';
  }
}

export class AgentTimeoutError extends AcpError {
  readonly kind = 'timeout';
  constructor(
    agentName: string,
    method: string,
    readonly timeoutMs: number,
    stderrTail: string,
  ) {
    super(
      `Agent "${agentName}" did not answer ${method} within ${formatDuration(timeoutMs)}; it was stopped. ` +
        `Check that the command really starts an ACP agent on stdio.${stderrSuffix(stderrTail)}`,
    );
    this.name = 'AgentTimeoutError';
  }
}

export class UnsupportedProtocolVersionError extends AcpError {
  readonly kind = 'unsupported-protocol-version';
  constructor(
    agentName: string,
    readonly agentVersion: unknown,
    readonly supported: readonly number[],
    /** What the user can do about it (e.g. the setting that offers the agent's version). */
    hint?: string,
    message?: string,
  ) {
    super(
      message ??
        `Agent "${agentName}" speaks ACP protocol version ${JSON.stringify(agentVersion)}, ` +
          `but Subchats supports only version ${supported.join(', ')}. The agent was disconnected.${hint ? ` ${hint}` : ''}`,
    );
    this.name = 'UnsupportedProtocolVersionError';
  }

  /** The agent refused the offered version (AcpErrorCodes.UnsupportedProtocolVersion), naming the versions it supports (when it did). */
  static refused(agentName: string, offered: number, agentSupports: readonly unknown[] | undefined, speakable: readonly number[]): UnsupportedProtocolVersionError {
    const versions = (agentSupports ?? []).filter((v): v is number => typeof v === 'number');
    const common = versions.filter((v) => speakable.includes(v));
    const supports = versions.length ? ` (it supports ${versions.join(', ')})` : '';
    const hint = common.length ? ` Set subchats.protocolVersion to "${Math.max(...common)}" or "auto" to speak version ${Math.max(...common)} with it.` : '';
    return new UnsupportedProtocolVersionError(agentName, versions, speakable, undefined, `Agent "${agentName}" does not accept ACP version ${offered}${supports}. The agent was disconnected.${hint}`);
  }
}

export class NotInitializedError extends AcpError {
  readonly kind = 'not-initialized';
  constructor(agentName: string, method: string) {
    super(`Cannot send ${method}: agent "${agentName}" has not been initialized yet.`);
    this.name = 'NotInitializedError';
  }
}

/** A caller passed something we must not put on the wire (e.g. a relative cwd). */
export class InvalidArgumentError extends AcpError {
  readonly kind = 'invalid-argument';
  constructor(message: string) {
    super(`${message}. Nothing was sent.`);
    this.name = 'InvalidArgumentError';
  }
}

/** The agent answered, but with something we cannot use (e.g. session/new without a sessionId). */
export class InvalidAgentResponseError extends AcpError {
  readonly kind = 'invalid-response';
  constructor(agentName: string, method: string, problem: string) {
    super(`Agent "${agentName}" answered ${method} with an unusable result: ${problem}.`);
    this.name = 'InvalidAgentResponseError';
  }
}

/** The agent answered one of our requests with a JSON-RPC error. */
export class AgentRequestError extends AcpError {
  readonly kind = 'agent-error';
  constructor(
    agentName: string,
    readonly method: string,
    readonly code: number,
    readonly agentMessage: string,
    readonly data: unknown,
  ) {
    super(`Agent "${agentName}" failed ${method}: ${agentMessage || 'no message'} (${describeErrorCode(code)}).`);
    this.name = 'AgentRequestError';
  }
}

/** We refused to send a request because the agent did not advertise the feature. */
export class NotAdvertisedError extends AcpError {
  readonly kind = 'not-advertised';
  constructor(
    agentName: string,
    readonly method: string,
    detail: string,
  ) {
    super(`Agent "${agentName}" does not support ${method}: ${detail}. Nothing was sent.`);
    this.name = 'NotAdvertisedError';
  }
}

/** The session store (through the action guard) does not allow this action on this session. */
export class ActionRefusedError extends AcpError {
  readonly kind = 'action-refused';
  constructor(
    readonly sessionId: string,
    readonly action: string,
    readonly reason: string,
  ) {
    // Reasons are sentences already; no doubled full stop before the suffix.
    super(`Cannot ${action} session ${sessionId}: ${reason.replace(/\.\s*$/, '')}. Nothing was sent.`);
    this.name = 'ActionRefusedError';
  }
}

export class InvalidDelegationError extends AcpError {
  readonly kind = 'invalid-delegation';
  constructor(readonly problems: readonly string[]) {
    super(`Invalid delegation: ${problems.join('; ')}. Nothing was sent.`);
    this.name = 'InvalidDelegationError';
  }
}

/** A content block the agent did not opt in to (promptCapabilities). */
export class UnsupportedContentError extends AcpError {
  readonly kind = 'unsupported-content';
  constructor(agentName: string, blockType: string, capability: string) {
    super(`Agent "${agentName}" does not accept "${blockType}" prompt content (promptCapabilities.${capability} not advertised). Nothing was sent.`);
    this.name = 'UnsupportedContentError';
  }
}

const ERROR_CODE_NAMES: Record<number, string> = {
  [ErrorCodes.ParseError]: 'parse error',
  [ErrorCodes.InvalidRequest]: 'invalid request',
  [ErrorCodes.MethodNotFound]: 'method not found',
  [ErrorCodes.InvalidParams]: 'invalid params',
  [ErrorCodes.InternalError]: 'internal error',
  [AcpErrorCodes.RequestCancelled]: 'request cancelled',
  [AcpErrorCodes.AuthRequired]: 'authentication required',
  [AcpErrorCodes.ResourceNotFound]: 'resource not found',
  [AcpErrorCodes.UnsupportedProtocolVersion]: 'unsupported protocol version',
};

function describeErrorCode(code: number): string {
  const name = ERROR_CODE_NAMES[code];
  return name ? `${name}, code ${code}` : `code ${code}`;
}

export function describeExit(agentName: string, exit: Pick<AgentExit, 'code' | 'signal'>): string {
  if (exit.signal) return `Agent "${agentName}" was stopped by signal ${exit.signal}`;
  if (exit.code === null) return `Agent "${agentName}" closed its connection`;
  return `Agent "${agentName}" exited with code ${exit.code}`;
}

function stderrSuffix(stderrTail: string): string {
  const trimmed = stderrTail.trim();
  if (!trimmed) return '';
  const lastLines = trimmed.split(/\r?\n/).slice(-5).join('\n');
  return `\nLast stderr output:\n${lastLines}`;
}

export function formatDuration(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/**
 * Thrown while serving an agent->client request; the connection answers with this JSON-RPC error code.
 * Codes: ErrorCodes (JSON-RPC's, from vscode-jsonrpc) and AcpErrorCodes (ACP's own).
 */
export class ClientRequestError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ClientRequestError';
  }
}
