// Transcript shapes shared by the session store, the chat webview and history: plain JSON-serializable
// records. This module depends on nothing, so both sides of the webview boundary can use it.

/**
 * The session's work state. `state` is exactly what the agent reported (custom strings kept), or one of the
 * client-side values: `unconfirmed` (never reported or cleared) and `disconnected` (the agent went away).
 */
export interface SessionStateInfo {
  readonly state: string;
  readonly stopReason?: string;
  readonly error?: { readonly code?: number; readonly message?: string };
  /** The agent's own words on this end where the client reads it otherwise (a failure after the user's cancel). */
  readonly reported?: string;
  readonly usage?: Readonly<Record<string, unknown>>;
  /** For `disconnected`: the last state the agent reported before the connection ended. */
  readonly lastKnown?: SessionStateInfo;
}

/**
 * Time a session spent at work, by what it did (spells that ended), and when the current spell began. A spell is
 * `working` while the state is running and `waiting` while it requires action; anything else is idle.
 */
export interface TimeSpent {
  readonly working: number;
  readonly waiting: number;
  /** Start of the current working or waiting spell; null while idle. */
  readonly since: number | null;
}

/**
 * Who said so: `agent` = the agent reported this state (subagent_update, state_update, a prompt response);
 * `tool-call` = the child follows its parent's tool call; `turn` = it ended with its parent's prompt turn;
 * `client` = the client's own knowledge (a new session is idle, a sent prompt runs, the connection went away);
 * `agent-started` = the agent sent new work with no prompt in flight: a turn it started itself.
 */
export type StateSource = 'agent' | 'tool-call' | 'turn' | 'client' | 'agent-started';

export interface StateHistoryItem {
  readonly state: string;
  readonly stopReason?: string;
  readonly at: number;
  readonly source: StateSource;
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

interface ToolCallLocation {
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
  /** Latest one-line progress text a dialect reports for a running subagent call (qwen `subagentProgress`). */
  progress?: string;
  /**
   * The prompt turn ended while this call was still open and the agent never reported its end: it is shown as
   * stopped with that turn, without claiming a result. Cleared when the agent reports a status again.
   */
  stoppedByTurn?: { readonly stopReason: string; readonly at: number };
  meta?: Record<string, unknown>;
  /** v2: controls the call grants now (`cancel: {}` allows `tool_call/cancel`); replaced whole, `null` clears. */
  capabilities?: Record<string, unknown> | null;
}

export interface TerminalRecord {
  readonly terminalId: string;
  command: string;
  args: string[];
  output: string;
  truncated: boolean;
  exitStatus: { exitCode?: number | null; signal?: string | null } | null;
  /** v2: an agent-owned terminal (terminal_update), not one the client runs. */
  agentOwned?: boolean;
  cwd?: string | null;
  /** v2 agent terminals: controls it grants now (`cancel: {}` allows `terminal/cancel`). */
  capabilities?: Record<string, unknown> | null;
  /** v2 agent terminals: characters dropped from the front to keep the output bounded (see `truncated`). */
  droppedChars?: number;
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
  /** Concatenated text of the message's text blocks (after `earlier`, when the host keeps a head on disk). */
  text: string;
  /** The head of a long text the host moved out of memory (textSpill.ts): read back on request, page by page. */
  earlier?: EarlierText;
  /** Non-text blocks (images, resources, links), in arrival order. */
  attachments: ContentBlock[];
  /** A message sent into a running turn (`_session/steering`), and how far it got. */
  steer?: SteerDelivery;
  /** A message for a subagent sent through its parent: on the parent, what was sent; on the child, its copy. */
  relay?: RelayNote;
  /**
   * A message the client sent keeps its words as sent: the agent's echo of it, where that says something else,
   * is kept here as the agent's account (plain text; '' when the agent emptied it).
   */
  agentEcho?: string;
  /** A user message the client never sent: the agent put it in the conversation (it never names the session). */
  addedByAgent?: true;
  /** The user sent an earlier message of theirs again (retried it, or edited it first): a new turn, the turns between stay. */
  resend?: ResendNote;
}

/** How much of a message's text comes before its `text`: its characters (UTF-16, as offsets count) and UTF-8 bytes. */
export interface EarlierText {
  readonly chars: number;
  readonly bytes: number;
}

export interface ToolCallEntry extends EntryBase {
  readonly kind: 'toolCall';
  readonly toolCallId: string;
}

export interface PlanEntryItem extends EntryBase {
  readonly kind: 'plan';
  /** v2: the plan's id (a session can hold several plans); absent for the one plan of v1. */
  readonly planId?: string;
  entries: PlanEntry[];
  /** v2 `plan_removed`: the agent withdrew this plan; it stays in place, shown as removed. */
  removed?: boolean;
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

/** A command as an agent's tool call gives it: one shell line, or an argv array. */
export type ShownCommand = string | readonly string[];

export interface PermissionEntry extends EntryBase {
  readonly kind: 'permission';
  /** JSON-RPC id of the agent's request, as a string. */
  readonly requestId: string;
  readonly toolCallId?: string;
  readonly title: string;
  /** v2: the agent's plain-text detail under the title. */
  readonly description?: string;
  readonly options: PermissionOption[];
  /**
   * The tool call's kind and the command its raw input held when the agent asked: the prompt shows them, and
   * an allow answer covers exactly them. Later updates of the call never change them.
   */
  readonly toolKind?: string;
  readonly command?: ShownCommand;
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

/**
 * Where a session's turn is, as the client knows it: `starting` (a prompt of ours is out and the agent has not
 * answered anything yet), `running` (a turn of ours runs), `awaiting-user` (a question waits for the user),
 * `cancelling` (the client sent session/cancel and the agent has not acted yet), `agent-started` (the agent runs
 * a turn it started itself; only the agent can end it), `background` (a subagent working after its launch call
 * ended), `idle`, `disconnected` (the agent is gone) and `closed` (the client closed it).
 */
export type TurnPhase = 'idle' | 'starting' | 'running' | 'awaiting-user' | 'cancelling' | 'agent-started' | 'background' | 'disconnected' | 'closed';

/**
 * What a message the user sends now becomes: a `prompt` (session/prompt), a `steer` of the running turn
 * (`_session/steering`), a `queue` entry sent when the turn ends, a `relay` through the parent (a subagent), or
 * nothing (`refuse`, with the reason).
 */
export type MessageRoute = 'prompt' | 'steer' | 'queue' | 'relay' | 'refuse';

export interface SendVerdict {
  readonly route: MessageRoute;
  /** Why this route, in words for the user (for `refuse`: why not). */
  readonly reason: string;
  /** For a relay: the session that takes the message (the nearest ancestor that takes prompts). */
  readonly via?: { readonly sessionId: string; readonly label: string };
  /** Ask the user before sending, with this question (an agent that would stop background work on a prompt). */
  readonly confirm?: string;
}

export interface SessionActions {
  readonly phase: TurnPhase;
  /** A turn runs (or is being cancelled): the chat offers stop and reads "Steer"/"Queue" instead of "Send". */
  readonly busy: boolean;
  readonly cancel: ActionPermission;
  /** The session takes the user's messages directly (roots the client opened, loaded subagent sessions). */
  readonly prompt: ActionPermission;
  /** A message now may join the running turn (`_session/steering`, where the agent advertises it). */
  readonly steer: ActionPermission;
  /** A message now may wait in the session's queue until its turn ends (the "queue instead" choice). */
  readonly queue: ActionPermission;
  /** A subagent's message may go through its parent. */
  readonly relay: ActionPermission;
  readonly close: ActionPermission;
  /** Modes and config options: roots only, while they take prompts. */
  readonly changeSetting: ActionPermission;
  /** Load a subagent's own session (`session/load` of the id its agent named), to read its whole transcript. */
  readonly openSubagent: ActionPermission;
  /** A message for this subagent reaches it now: it takes prompts of its own, or a relay through its parent does. */
  readonly message: ActionPermission;
  /** Some subagent below it (at any depth) can be cancelled now ("Cancel All Subagents"). */
  readonly cancelChildren: ActionPermission;
  /** What a message sent now becomes. */
  readonly send: SendVerdict;
}

/** The actions a verdict allows or refuses (the SessionActions fields that are permissions). */
export type SessionAction = { [K in keyof SessionActions]: SessionActions[K] extends ActionPermission ? K : never }[keyof SessionActions];

/** A message waiting in a session's queue until its turn ends (a prompt, or a relay for a subagent). */
export interface QueuedMessage {
  readonly id: string;
  /** The user's words (for a relay: without the relay label). */
  readonly text: string;
  /** How many attachments go with it. */
  readonly attachments: number;
  /** For a relay: the subagent it is for. */
  readonly relayFor?: { readonly sessionId: string; readonly label: string };
  readonly at: number;
}

/**
 * How far a message the user sent during a turn got: `sending` (request out), `accepted` (the agent took it into
 * the running turn), `landed` (the agent showed it read it: a v2 echo, or at v1 its next words), `new-turn` (no
 * turn ran; the agent started one for it), `as-prompt` (no turn ran; sent as a new prompt), `failed` (the agent
 * refused it), `not-delivered` (the turn was cancelled before the agent showed it read it).
 */
type SteerStatus = 'sending' | 'accepted' | 'landed' | 'new-turn' | 'as-prompt' | 'failed' | 'not-delivered';

export interface SteerDelivery {
  status: SteerStatus;
  /** For `failed` and `not-delivered`: what happened, in words for the user. */
  reason?: string;
}

/** Which earlier message a resent one repeats, and how: as it was (`retry`) or edited (`edit`). */
export interface ResendNote {
  readonly how: 'retry' | 'edit';
  /** When the original was sent (what the chat names it by) and its entry, when the chat still has it. */
  readonly of: { readonly at: number; readonly entryId?: string };
}

/** A message for a subagent that went through its parent: shown in both chats. */
export interface RelayNote {
  /** Which copy this is: the message the parent got, or the subagent's own record of it. */
  readonly side: 'parent' | 'child';
  readonly childId: string;
  readonly childLabel: string;
  readonly parentId: string;
  readonly parentLabel: string;
  /** Child side: when the parent next messaged the subagent (`message`), or the subagent next worked (`activity`). */
  passedOn?: { readonly at: number; readonly how: 'message' | 'activity' };
}

/** A slash command the agent advertised for a session (`available_commands_update`), as the store read it. */
export interface AvailableCommand {
  readonly name: string;
  readonly description: string;
  /** What to type after the command, when it takes input. */
  readonly hint?: string;
}

/** Which prompt content the agent opted in to (`promptCapabilities`); text and resource links always go. */
export interface PromptCapabilities {
  readonly image: boolean;
  readonly audio: boolean;
  readonly embeddedContext: boolean;
}

/** One file a session (or a tree of sessions) changed, as the Changes lists show it. */
export interface FileChangeSummary {
  readonly path: string;
  readonly added: number;
  readonly removed: number;
  /** False when the counts are upper bounds (the diff was too large to count exactly, or the text before is unknown). */
  readonly exact: boolean;
  /** The agent reported the file as new (a diff without earlier text). */
  readonly created: boolean;
  /** The change came with its text (a diff or a write); false for an edit reported only by its location. */
  readonly textKnown: boolean;
  /** The text before the change was reported (a diff); false for a file only written, whose counts are then bounds. */
  readonly beforeKnown: boolean;
  /** Counted from the agent's git patch (an ACP v2 diff, which carries no file texts). */
  readonly fromPatch?: boolean;
}
