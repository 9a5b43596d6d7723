// What an AgentConnection is made of: the agent to run, the editor's host, the store its traffic feeds, and
// the policies and hooks around the agent's requests to the client.
import type { Implementation, McpServer } from '@agentclientprotocol/sdk/unstable';
import type { SessionActions } from '../store/model';
import type { SessionStore } from '../store/sessionStore';
import type { ProtocolVersion } from './agentFeatures';
import type { AgentConfig } from './agentProcess';
import type { ClientHost } from './clientHost';
import type { WireTap } from './ndjson';
import type { TerminalPolicy } from './terminalGate';

export interface AgentConnectionOptions {
  readonly agent: AgentConfig;
  /** Working directory of the agent process (unless the agent names its own `processCwd`). */
  readonly cwd: string;
  readonly host: ClientHost;
  /** Absolute paths of the open workspace folders (writes and terminal cwds must stay inside). */
  readonly workspaceFolders: () => readonly string[];
  readonly clientInfo?: Implementation;
  /** Sees every message in both directions, in wire order, before it is dispatched or written. */
  readonly tap?: WireTap;
  /** A received line that is not JSON / not JSON-RPC (skipped; the connection lives on). */
  readonly onInvalidLine?: (raw: string, reason: string) => void;
  readonly log?: (text: string) => void;
  /** Default 30 000 ms. */
  readonly initializeTimeoutMs?: number;
  /** Longest line read from the agent, in bytes (default 16 MiB); a longer one is skipped with a diagnostic. */
  readonly maxLineBytes?: number;
  /** The session store's verdict; nothing is sent for a refused cancel/prompt/close. */
  readonly actionsFor?: (sessionId: string) => SessionActions;
  /**
   * The session store this connection's traffic feeds (every message, both directions, in wire order, before
   * `tap`). The connection reads what it may send from it: modes, config options, the catalog, cwds, actions.
   * Default: a store of its own.
   */
  readonly store?: SessionStore;
  /** Known descendants (children, grandchildren, ...) of a session, for cascading cancellation. */
  readonly descendantsOf?: (sessionId: string) => Iterable<string>;
  /** Default terminal cwd for a session (e.g. a child's announced cwd); falls back to the session's own cwd. */
  readonly sessionCwd?: (sessionId: string) => string | undefined;
  readonly terminalOutputByteLimit?: number;
  /** Setting subchats.terminals: whether terminal/create asks (default), runs, or is refused. */
  readonly terminalPolicy?: () => TerminalPolicy;
  /** Environment the agent and its terminals inherit (default process.env). */
  readonly baseEnv?: NodeJS.ProcessEnv;
  /** Time between SIGTERM and SIGKILL when stopping the agent. Default 2000 ms. */
  readonly stopGraceMs?: number;
  /** The ACP version `initialize` offers (default 1); the connection then speaks the one the agent answers. */
  readonly protocolVersion?: ProtocolVersion;
  /** Runs before an fs request reads or writes a file (Open Changes keeps the text from before the agent's work). */
  readonly beforeFileAccess?: (sessionId: string, path: string) => Promise<void>;
  /** Runs before a permission request is put to the user (the copies of files its tool call named are taken first). */
  readonly beforePermission?: (sessionId: string) => Promise<void>;
}

export interface SessionSetupOptions {
  readonly mcpServers?: McpServer[];
  readonly additionalDirectories?: string[];
}

export const DEFAULT_INITIALIZE_TIMEOUT_MS = 30_000;
