// The session store's data model. Plain JSON-serializable records (no classes, no Maps),
// so the same shapes travel to the webview and into persisted history unchanged.

export type Direction = 'client->agent' | 'agent->client';

/** How a session learned who its parent is (`link` in `subchats replay --json`). */
export type SessionLink =
  | 'root' // created by session/new, session/load, session/resume, or first seen with no link
  | 'subagent_update' // ACP subagents: announced by subagent_update on the parent
  | 'subagent_spawned' // JetBrains AIR / early RFD draft
  | 'claude-meta' // _meta.claudeCode.parentToolUseId on the parent session (virtual child)
  | 'qwen-meta' // update _meta.parentToolCallId on the parent session (virtual child)
  | 'agentpool-meta' // params _meta.parentToolCallId on the child's own session id
  | 'zed-meta' // tool call _meta.subagent_session_info.session_id
  | 'tool-kind' // draft kind:"subagent" with subagent.childSessionId
  | 'session-info' // SessionInfo.parentSessionId (session/list) or session_info_update
  | 'opaque-tool'; // a subagent only visible as a tool call (opencode task, gemini invoke_agent, codex spawnAgent)

/** What kind of record: a real session on the wire, or one the client reconstructed. */
export type SessionOrigin = 'root' | 'announced' | 'virtual';

/**
 * The session's work state. `state` is exactly what the agent reported (custom strings kept), or one of the
 * client-side values: `unconfirmed` (never reported or cleared) and `disconnected` (the agent went away).
 */
export interface SessionStateInfo {
  readonly state: string;
  readonly stopReason?: string;
  readonly error?: { readonly code?: number; readonly message?: string };
  readonly usage?: Readonly<Record<string, unknown>>;
  /** For `disconnected`: the last state the agent reported before the connection ended. */
  readonly lastKnown?: SessionStateInfo;
}

export interface StateHistoryItem {
  readonly state: string;
  readonly stopReason?: string;
  readonly at: number;
}

export interface ContentBlock {
  readonly type: string;
  readonly text?: string;
  readonly [key: string]: unknown;
}

export type ToolCallContent =
  | { readonly type: 'content'; readonly content: ContentBlock }
  | { readonly type: 'diff'; readonly path: string; readonly oldText?: string | null; readonly newText: string }
  | { readonly type: 'terminal'; readonly terminalId: string }
  | { readonly type: 'session'; readonly sessionId: string }
  | { readonly type: string; readonly [key: string]: unknown };

export interface ToolCallLocation {
  readonly path: string;
  readonly line?: number | null;
}

export interface ToolCallRecord {
  readonly toolCallId: string;
  title: string;
  kind: string;
  status: string;
  name?: string;
  content: ToolCallContent[];
  locations: ToolCallLocation[];
  rawInput?: unknown;
  rawOutput?: unknown;
  /** The session this tool call spawned, when it is a subagent call. */
  childSessionId?: string;
  /** Latest one-line progress text a dialect reports for a subagent call (qwen `subagentProgress`). */
  progress?: string;
  meta?: Record<string, unknown>;
}

export interface TerminalRecord {
  readonly terminalId: string;
  command: string;
  args: string[];
  output: string;
  truncated: boolean;
  exitStatus: { exitCode?: number | null; signal?: string | null } | null;
}

export interface PlanEntry {
  readonly content: string;
  readonly priority?: string;
  readonly status?: string;
}

export interface PermissionOption {
  readonly optionId: string;
  readonly name: string;
  readonly kind: string;
}

/** One visible item of a session's transcript. `rev` is the store revision of its last change. */
export type Entry =
  | MessageEntry
  | ToolCallEntry
  | PlanEntryItem
  | SessionMessageEntry
  | ChildEntry
  | PermissionEntry
  | NoticeEntry
  | ElicitationEntry;

interface EntryBase {
  readonly id: string;
  rev: number;
  readonly at: number;
}

export interface MessageEntry extends EntryBase {
  readonly kind: 'message';
  readonly role: 'user' | 'agent' | 'thought';
  readonly messageId?: string;
  /** Concatenated text of the message's text blocks. */
  text: string;
  /** Non-text blocks (images, resources, links), in arrival order. */
  attachments: ContentBlock[];
}

export interface ToolCallEntry extends EntryBase {
  readonly kind: 'toolCall';
  readonly toolCallId: string;
}

export interface PlanEntryItem extends EntryBase {
  readonly kind: 'plan';
  entries: PlanEntry[];
}

/** `session_message`: a message between sessions, shown in the transcript it was sent on. */
export interface SessionMessageEntry extends EntryBase {
  readonly kind: 'sessionMessage';
  readonly messageId: string;
  /** Outgoing when this session is the sender, incoming when it is the recipient. */
  direction: 'incoming' | 'outgoing' | 'unknown';
  senderSessionId?: string;
  recipientSessionId?: string;
  senderMessageId?: string;
  recipientMessageId?: string;
  text: string;
  attachments: ContentBlock[];
}

/** Where a child was spawned in its parent's transcript (the child card). */
export interface ChildEntry extends EntryBase {
  readonly kind: 'child';
  readonly childSessionId: string;
}

export interface PermissionEntry extends EntryBase {
  readonly kind: 'permission';
  /** JSON-RPC id of the agent's request, as a string. */
  readonly requestId: string;
  readonly toolCallId?: string;
  readonly title: string;
  readonly options: PermissionOption[];
  /** `pending` until answered; then `selected` (with optionId) or `cancelled`. */
  outcome: 'pending' | 'selected' | 'cancelled' | 'failed';
  optionId?: string;
}

export interface NoticeEntry extends EntryBase {
  readonly kind: 'notice';
  readonly severity: string;
  readonly title: string;
  readonly description?: string;
}

export interface ElicitationEntry extends EntryBase {
  readonly kind: 'elicitation';
  readonly requestId: string;
  readonly message: string;
  readonly mode: string;
  outcome: 'pending' | 'accept' | 'decline' | 'cancel' | 'failed';
}

export interface ActionPermission {
  readonly allowed: boolean;
  /** Why not, in words for the user. */
  readonly reason?: string;
}

export interface SessionActions {
  readonly cancel: ActionPermission;
  readonly prompt: ActionPermission;
  readonly close: ActionPermission;
}

export interface SessionRecord {
  readonly id: string;
  parentId: string | null;
  parentToolCallId: string | null;
  link: SessionLink;
  origin: SessionOrigin;
  title: string | null;
  description: string | null;
  subagentType: string | null;
  cwd: string | null;
  additionalDirectories: string[] | null;
  /** Raw `capabilities` from the last subagent_update (replaced whole). */
  capabilities: Record<string, unknown> | null;
  state: SessionStateInfo;
  stateHistory: StateHistoryItem[];
  childIds: string[];
  entries: Entry[];
  toolCalls: Record<string, ToolCallRecord>;
  toolCallOrder: string[];
  plan: PlanEntry[] | null;
  usage: Record<string, unknown> | null;
  currentModeId: string | null;
  modes: unknown;
  configOptions: unknown;
  availableCommands: unknown;
  /** A child session id some agents report only at completion (opencode `rawOutput.metadata.sessionId`). */
  remoteSessionId: string | null;
  /** Non-null while a session/prompt request on this session awaits its response. */
  activePromptId: string | null;
  /** True once any traffic arrived for this session (used to flag traffic before an announcement). */
  hadTraffic: boolean;
  /** Permission and elicitation requests of this session still waiting for the user. */
  awaitingUser: number;
  /** Created or attached by this client (session/new, load, resume): only such sessions get root actions. */
  openedByClient: boolean;
  /** True once the agent reported a state for this session itself (subagent_update state or state_update). */
  stateReported: boolean;
  /** Child state replayed by session/load is history: controls stay off until the agent re-announces it. */
  controlsStale: boolean;
  /** Terminals created for this session (terminal/create), with the output the client last read. */
  terminals: Record<string, TerminalRecord>;
  /** Draft catalog of subagents the agent offers for delegation (`availableSubagents`). */
  availableSubagents: unknown[] | null;
  createdAt: number;
  updatedAt: number;
  rev: number;
  meta: Record<string, unknown> | null;
}

export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly message: string;
  /** 1-based line of the transcript (or sequence number of the live message) it came from. */
  readonly line: number;
}

export type DiagnosticCode =
  | 'malformed-line'
  | 'invalid-message'
  | 'unknown-method'
  | 'unknown-update'
  | 'missing-session'
  | 'child-before-announcement'
  | 'reparent'
  | 'cycle'
  | 'self-parent'
  | 'unknown-tool-call'
  | 'unmatched-response'
  | 'agent-error'
  | 'ambiguous-parent'
  | 'limit';

/** What changed, so views can update in place. */
export interface StoreChange {
  readonly sessionId: string;
  /** `tree`: the session was added or moved; `session`: its fields changed; `entry`: one transcript entry changed. */
  readonly kind: 'tree' | 'session' | 'entry';
  readonly entryId?: string;
}
