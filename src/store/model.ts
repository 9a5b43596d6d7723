// The session store's data model. Plain JSON-serializable records (no classes, no Maps); the transcript
// shapes they hold are shared with the webview (src/protocol/transcript.ts).

import type { AvailableCommand, ContentBlock, Entry, PlanEntry, QueuedMessage, SessionStateInfo, StateHistoryItem, TerminalRecord, TimeSpent, ToolCallRecord } from '../protocol/transcript';
import type { SessionUsage } from '../protocol/usage';
import type { UsageReports } from './usage';

export type * from '../protocol/transcript';

export type { Direction } from './wireMessage';

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
  | 'opaque-tool' // a subagent only visible as a tool call (opencode task, gemini invoke_agent, codex spawnAgent)
  | 'copilot-meta' // GitHub Copilot CLI: child tool calls on the parent session tagged with _meta["github.com/copilot"].agentId
  | 'opencode-child' // opencode's opt-in opencode/session/child_update: the child's own session id, its parent named
  | 'devin-meta' // Devin: _meta["cognition.ai/subagent_started"] keyed by agentId; child updates tagged with subagent_context
  | 'sudocode-meta' // sudocode: _meta.sudocode.agentSpawn on the spawning call; child updates tagged with their stream
  | 'cursor-task' // Cursor: a generic Task/agent tool call, detailed by the cursor/task extension
  | 'omp-agents'; // oh-my-pi: the _omp/agents/update roster and _omp/agents/progress (no session id on the wire)

/** What kind of record: a real session on the wire, or one the client reconstructed. */
export type SessionOrigin = 'root' | 'announced' | 'virtual';

export interface SessionRecord {
  readonly id: string;
  /** What every view shows as the session's name; never an id (see sessionLabel.ts). */
  label: string;
  /** 1-based order of appearance on the connection ("Session N" when nothing better is known). */
  readonly ordinal: number;
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
  /** The last `usage_update` as sent (context used/size, cost); what views show is `spend`. */
  usage: Record<string, unknown> | null;
  /** Every usage report the agent sent on this session, normalised, one per source (src/store/usage.ts). */
  usageReports: UsageReports;
  /** What the session spent as the agent reported it: the reports merged (null until any came). */
  spend: SessionUsage | null;
  currentModeId: string | null;
  modes: unknown;
  configOptions: unknown;
  /** The slash commands the agent advertised, read into shape (null until it sent any). */
  availableCommands: AvailableCommand[] | null;
  /** A child session id some agents report only at completion (opencode `rawOutput.metadata.sessionId`). */
  remoteSessionId: string | null;
  /** The client closed it (session/close succeeded): the agent freed it; nothing more can be sent to it. */
  closed: boolean;
  /** When the client last sent session/cancel for it; cleared by the next state change. */
  cancelRequestedAt: number | null;
  /** A child whose launch call completed while it keeps working in the background (until its end is reported). */
  background: boolean;
  /** Non-null while a session/prompt request on this session awaits its response. */
  activePromptId: string | null;
  /** A prompt of ours is out and nothing has come from the agent for this session since (the turn is starting). */
  promptUnanswered: boolean;
  /** Messages the user sent while the turn ran, waiting for it to end (the client's queue, not on the wire). */
  queued: QueuedPrompt[];
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
  /** Files the client wrote for this session (fs/write_text_file that succeeded), in order. */
  fileWrites: FileWrite[];
  /** Draft catalog of subagents the agent offers for delegation (`availableSubagents`). */
  availableSubagents: unknown[] | null;
  createdAt: number;
  updatedAt: number;
  /** Time spent working and waiting on the user (replaced whole on each change): idle time between turns is neither. */
  timeSpent: TimeSpent;
  rev: number;
  /** The newest `rev` in the session's subtree (itself and its descendants): what a subtree summary is current at. */
  subtreeRev: number;
  meta: Record<string, unknown> | null;
}

/** A queued message with what is sent when its turn comes: the content blocks, and for a relay the labelled text. */
export interface QueuedPrompt extends QueuedMessage {
  readonly content: readonly ContentBlock[];
}

/** A successful fs/write_text_file: the text the client put in the file. */
export interface FileWrite {
  readonly path: string;
  readonly content: string;
  readonly at: number;
}

export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly message: string;
  /** 1-based line of the transcript (or sequence number of the live message) it came from. */
  readonly line: number;
}

export type DiagnosticCode =
  | 'malformed-line'
  /** A transcript line that stands for a message the recorder could not write (its size and reason). */
  | 'unrecorded-message'
  | 'invalid-message'
  | 'unknown-method'
  | 'unknown-update'
  | 'missing-session'
  | 'child-before-announcement'
  | 'reparent'
  | 'cycle'
  | 'self-parent'
  | 'unknown-tool-call'
  | 'unknown-plan'
  | 'unmatched-response'
  | 'agent-error'
  | 'ambiguous-parent'
  | 'limit'
  | 'bounded'
  /** A memory bound passed twice over with nothing left to drop: the agent is stopped. */
  | 'overrun';

/** What changed, so views can update in place. */
export interface StoreChange {
  readonly sessionId: string;
  /**
   * `tree`: the session was added, moved or removed; `session`: its fields changed; `entry`: one transcript
   * entry changed; `entries`: entries were taken out of its transcript (memory bounds), so read it whole again.
   */
  readonly kind: 'tree' | 'session' | 'entry' | 'entries';
  readonly entryId?: string;
  /**
   * For an entry change that only added text at the end of its text: that text. Views that mirror the text
   * (the chat feed) use it instead of reading the whole text again, which would cost its length per chunk.
   */
  readonly appended?: string;
}

/**
 * What readers of the store get: a record whose fields and lists they cannot change (only the store's
 * reducers do). Entries and tool calls keep their transcript types, so they travel to the webview as they are.
 */
export type SessionView = {
  readonly [K in keyof SessionRecord]: SessionRecord[K] extends (infer U)[] ? readonly U[] : SessionRecord[K] extends Record<string, infer V> ? Readonly<Record<string, V>> : SessionRecord[K];
};
