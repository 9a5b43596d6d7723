// The client side of ACP: serves the agent's requests (permission, files, terminals, elicitation) through the
// injected ClientHost, after the connection's own checks (paths, workspace confinement, read and terminal
// gates), and turns every failure into a JSON-RPC error answer. Methods the spoken ACP version lacks are
// answered "method not found".
import type { RequestPermissionOutcome } from '@agentclientprotocol/sdk/unstable';
import * as path from 'node:path';
import { ErrorCodes, ResponseError, type CancellationToken, type MessageConnection, type RequestType } from 'vscode-jsonrpc/node';
import { AcpErrorCodes } from '../protocol/acpErrorCodes';
import type { AgentConnectionOptions } from './connectionOptions';
import { readConfined, writeConfined } from './confinedFs';
import { ClientRequestError } from './errors';
import type { IncomingCancellation } from './incomingCancellation';
import { asRecord } from './json';
import * as v1 from './methods/v1';
import type { PendingHostRequests } from './pendingHostRequests';
import type { ReadGate } from './readGate';
import type { TerminalCreateParams, TerminalManager } from './terminals';
import { sliceLines } from './textSlice';
import type { VersionAdapter } from './versionAdapter';
import { resolveWorkspacePath, WorkspacePathError } from './workspacePaths';

export interface ClientRequestServerOptions extends Pick<AgentConnectionOptions, 'host' | 'workspaceFolders' | 'beforeFileAccess' | 'beforePermission'> {
  readonly connection: MessageConnection;
  readonly incoming: IncomingCancellation;
  readonly pendingHost: PendingHostRequests;
  readonly reads: ReadGate;
  readonly terminals: TerminalManager;
  /** The adapter of the version the connection speaks now. */
  readonly adapter: () => VersionAdapter;
  readonly log: (text: string) => void;
}

type Handler<R> = (params: Record<string, unknown>, token: CancellationToken) => Promise<R>;

/** Registers the handlers of every agent->client request and notification on `options.connection`. */
export function serveClientRequests(options: ClientRequestServerOptions): void {
  const { connection, host, incoming, pendingHost, terminals } = options;

  /** An agent request's handler: its result is typed by the method, the agent's params are checked by hand. */
  const serve = <P, R>(type: RequestType<P, R, void>, handler: Handler<R>) => {
    const { method } = type;
    // Registered by name: vscode-jsonrpc answers a typed handler's missing params with an error of its own.
    connection.onRequest(method, async (...args: unknown[]) => {
      const token = args[args.length - 1] as CancellationToken;
      const params = args.length > 1 ? (asRecord(args[0]) ?? {}) : {};
      try {
        const adapter = options.adapter();
        if (!adapter.serves(method)) throw new ClientRequestError(ErrorCodes.MethodNotFound, `Method not found: ${method} (not part of ACP v${adapter.version})`);
        return await handler(params, token);
      } catch (error) {
        throw toResponseError(method, error);
      } finally {
        incoming.forget(token);
      }
    });
  };

  /** `$/cancel_request` from the agent ends a waiting host request with "request cancelled". */
  const withdrawOn = (token: CancellationToken) => (abandon: (error: Error) => void) => {
    token.onCancellationRequested(() => abandon(new ClientRequestError(AcpErrorCodes.RequestCancelled, 'Request cancelled by the agent')));
  };

  serve(v1.requestPermission, async (params, token) => {
    const sessionId = requireString(params, 'sessionId');
    const offered = Array.isArray(params.options) ? params.options : [];
    await options.beforePermission?.(sessionId);
    const outcome = await pendingHost.track<RequestPermissionOutcome>(
      sessionId,
      'permission',
      (signal) => host.requestPermission(params as never, signal, { requestId: incoming.requestIdOf(token) }),
      { outcome: 'cancelled' },
      withdrawOn(token),
    );
    return { outcome: checkedOutcome(outcome, offered, options.log) };
  });
  serve(v1.readTextFile, async (params) => {
    const sessionId = requireString(params, 'sessionId');
    const filePath = requireAbsolutePath(params);
    const allow = await options.reads.authorize(sessionId, filePath);
    await options.beforeFileAccess?.(sessionId, filePath);
    const content = await host.readTextFile(filePath, sessionId, () => readConfined(filePath, allow));
    return { content: sliceLines(content, params.line as number | null | undefined, params.limit as number | null | undefined) };
  });
  serve(v1.writeTextFile, async (params) => {
    const sessionId = requireString(params, 'sessionId');
    if (typeof params.content !== 'string') throw new ClientRequestError(ErrorCodes.InvalidParams, `${v1.writeTextFile.method} needs string content.`);
    const target = await resolveWorkspacePath(params.path, options.workspaceFolders());
    const content = params.content;
    await options.beforeFileAccess?.(sessionId, target.path);
    await host.writeTextFile(target.path, content, sessionId, () => writeConfined(target.path, content, options.workspaceFolders()));
    return {};
  });
  serve(v1.createTerminal, async (params) => {
    requireString(params, 'sessionId');
    return { terminalId: await terminals.create(params as unknown as TerminalCreateParams) };
  });
  serve(v1.terminalOutput, async (params) => {
    const snapshot = terminals.output(requireString(params, 'terminalId'));
    return snapshot.exitStatus ? snapshot : { output: snapshot.output, truncated: snapshot.truncated };
  });
  serve(v1.waitForTerminalExit, async (params) => terminals.waitForExit(requireString(params, 'terminalId')));
  serve(v1.killTerminal, async (params) => {
    terminals.kill(requireString(params, 'terminalId'));
    return {};
  });
  serve(v1.releaseTerminal, async (params) => {
    terminals.release(requireString(params, 'terminalId'));
    return {};
  });
  serve(v1.createElicitation, async (params, token) => {
    const elicit = host.elicit?.bind(host);
    if (!elicit) throw new ClientRequestError(ErrorCodes.MethodNotFound, `Method not found: ${v1.createElicitation.method} (not advertised by this client)`);
    const sessionId = typeof params.sessionId === 'string' ? params.sessionId : undefined;
    return pendingHost.track(sessionId, 'elicitation', (signal) => elicit(params as never, signal), { action: 'cancel' }, withdrawOn(token));
  });
  connection.onRequest((method, _params, token) => {
    incoming.forget(token);
    options.log(`Answered unknown request ${method} with "method not found"`);
    throw new ResponseError(ErrorCodes.MethodNotFound, `Method not found: ${method}`);
  });

  connection.onNotification(v1.sessionUpdate.method, () => undefined); // observed in wire order by the tap hook
  connection.onNotification(v1.cancelRequest.method, (params: unknown) => incoming.cancel(asRecord(params)?.requestId));
  connection.onNotification(v1.completeElicitation.method, (params: unknown) => {
    const elicitationId = asRecord(params)?.elicitationId;
    if (typeof elicitationId === 'string') host.elicitationComplete?.({ elicitationId });
  });
  connection.onUnhandledNotification((message) => options.log(`Ignored notification ${message.method}`));
}

/** The user's answer if it names an offered option, else `cancelled` (logged unless it was `cancelled`). */
function checkedOutcome(outcome: RequestPermissionOutcome, offered: unknown[], log: (text: string) => void): RequestPermissionOutcome {
  const chosen = asRecord(outcome);
  if (chosen?.outcome === 'selected' && typeof chosen.optionId === 'string' && offered.some((option) => asRecord(option)?.optionId === chosen.optionId)) {
    return { outcome: 'selected', optionId: chosen.optionId };
  }
  if (chosen?.outcome !== 'cancelled') log(`Permission answer ${JSON.stringify(outcome)} is not one of the offered options; sent as cancelled`);
  return { outcome: 'cancelled' };
}

function requireString(params: Record<string, unknown>, field: string): string {
  const value = params[field];
  if (typeof value !== 'string' || !value) throw new ClientRequestError(ErrorCodes.InvalidParams, `Missing or invalid "${field}".`);
  return value;
}

function requireAbsolutePath(params: Record<string, unknown>): string {
  const value = requireString(params, 'path');
  if (!path.isAbsolute(value)) throw new ClientRequestError(ErrorCodes.InvalidParams, `Path "${value}" is relative; ACP paths must be absolute.`);
  return value;
}

function toResponseError(method: string, error: unknown): ResponseError<unknown> {
  if (error instanceof ResponseError) return error;
  if (error instanceof ClientRequestError) return new ResponseError(error.code, error.message, error.data);
  if (error instanceof WorkspacePathError) return new ResponseError(ErrorCodes.InvalidParams, error.message, { reason: error.problem });
  const failure = error as { code?: unknown; message?: unknown } | undefined;
  if (failure?.code === 'ENOENT' || failure?.code === 'FileNotFound') {
    return new ResponseError(AcpErrorCodes.ResourceNotFound, `File not found${typeof failure.message === 'string' ? `: ${failure.message}` : ''}`);
  }
  const message = typeof failure?.message === 'string' ? failure.message : String(error);
  return new ResponseError(ErrorCodes.InternalError, `${method} failed: ${message}`);
}
