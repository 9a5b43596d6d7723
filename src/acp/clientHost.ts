// What the editor provides to serve agent->client requests. The VS Code implementation lives outside
// src/acp/ (it needs 'vscode'); the connection does validation, path checks, slicing and cancellation.
import type {
  CreateElicitationRequest,
  CreateElicitationResponse,
  RequestPermissionRequest,
  RequestPermissionOutcome,
} from '@agentclientprotocol/sdk/unstable';

export type { CreateElicitationRequest, CreateElicitationResponse, RequestPermissionRequest, RequestPermissionOutcome };

interface PermissionContext {
  /** JSON-RPC id of the agent's request (the store names the pending permission entry by it). */
  readonly requestId?: string | number;
}

/** How the user answered a question about something outside what agents may do on their own. */
export type AccessDecision = 'once' | 'session' | 'deny';

export interface AccessAsker {
  readonly agentName: string;
  readonly sessionId: string;
  /** The session's label in the store (what the tree shows), when known. */
  readonly sessionLabel?: string;
}

export interface OutsideReadQuestion extends AccessAsker {
  /** The path the agent named, and where it really leads. */
  readonly path: string;
  readonly realPath: string;
}

export interface TerminalQuestion extends AccessAsker {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** Overrides of variables that change what runs (PATH, LD_PRELOAD, …); the question must show them. */
  readonly riskyEnv: readonly { readonly name: string; readonly value: string }[];
}

export interface ClientHost {
  /**
   * Ask the user which option to take. `signal` aborts when the session (or an ancestor) is cancelled or
   * closed, or the agent withdrew the request or went away: dismiss the UI then; the answer is sent for you
   * and whatever this promise returns later is ignored. An optionId not among `request.options` is sent as
   * cancelled.
   */
  requestPermission(request: RequestPermissionRequest, signal: AbortSignal, context?: PermissionContext): Promise<RequestPermissionOutcome>;

  /**
   * The full current text of an absolute path (VS Code: the unsaved editor buffer when the file is open).
   * `line`/`limit` slicing is applied by the connection. Throw an error with `code: 'ENOENT'` for a missing file.
   */
  readTextFile(path: string, sessionId: string, readFromDisk: () => Promise<string>): Promise<string>;

  /**
   * Write the file. `path` is absolute, normalised and checked to be inside a workspace folder; write the disk
   * only through `writeToDisk` (it re-checks what it opens and renames a temporary file into place), then bring
   * an open editor up to date.
   */
  writeTextFile(path: string, content: string, sessionId: string, writeToDisk: () => Promise<void>): Promise<void>;

  /** Optional: ask before reading outside the workspace folders. Without it such reads are refused. */
  confirmOutsideRead?(question: OutsideReadQuestion): Promise<AccessDecision>;

  /** Optional: ask before running a command (setting `ask`). Without it such commands are refused. */
  confirmTerminal?(question: TerminalQuestion): Promise<AccessDecision>;

  /**
   * Optional. When present the client advertises `elicitation` with `elicitationModes` (default form only).
   * `signal` aborts like for permissions; a cancelled session is answered `{action: 'cancel'}`.
   */
  elicit?(request: CreateElicitationRequest, signal: AbortSignal): Promise<CreateElicitationResponse>;
  readonly elicitationModes?: readonly ('form' | 'url')[];

  /** Optional: the agent sent `elicitation/complete` (a URL-mode elicitation finished out of band). */
  elicitationComplete?(params: { readonly elicitationId: string }): void;
}
