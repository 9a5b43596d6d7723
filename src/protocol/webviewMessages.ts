// Messages between the extension host and the chat webview. Shared by both sides; depends only on the
// transcript shapes (./transcript). The host is the source of truth: it sends a full snapshot, then revisioned
// deltas. Every message type has a guard in ./messageGuards (the table will not compile without one).
import type { ActionPermission, AvailableCommand, Entry, FileChangeSummary, PromptCapabilities, QueuedMessage, SessionActions, StateHistoryItem, TerminalRecord, TimeSpent, ToolCallRecord } from './transcript';
import type { SessionUsage } from './usage';

/**
 * Version 7: a Changes row is the file's summary alone (the chat words its path from the snapshot's `workspace`).
 * Version 6: headers carry the controller's whole verdict (`actions`: phase, busy, steer, queue, relay, send)
 * and the session's queue (`queued`); the host queues, steers and relays (`prompt` with `queue`, `unqueue`).
 */
export const WEBVIEW_PROTOCOL_VERSION = 7;

/** How many of the latest state changes a header carries (enough for the state line's explanation). */
export const HEADER_STATE_HISTORY = 6;


/** A session's state as the webview gets it: what was reported, without the agent's usage blob. */
export interface ChatSessionState {
  readonly state: string;
  readonly stopReason?: string;
  readonly error?: { readonly code?: number; readonly message?: string };
  /** The agent's own words on an end the client reads otherwise (see SessionStateInfo). */
  readonly reported?: string;
  /** For `disconnected`: the last state reported before the connection ended. */
  readonly lastKnown?: ChatSessionState;
}

/** Context usage numbers, when the agent reported them (`usage_update`). */
export interface ChatUsage {
  readonly used?: number;
  readonly size?: number;
  readonly cost?: { readonly amount: number; readonly currency?: string };
}

/** One changed file of a Changes list; the chat shows its path as src/presentation/displayPath.ts says. */
export type ChatFileChange = FileChangeSummary;

/** Which changes "Open Changes" opens: the session's own, or those of the session and all its descendants. */
export type ChangesScope = 'session' | 'tree';

/** One value a session setting can take. */
export interface ChatSettingChoice {
  readonly value: string;
  readonly name: string;
  readonly description?: string;
}

/** A mode or config option the agent advertised for a root session, as a picker (src/presentation/sessionSettings.ts). */
export interface ChatSessionSetting {
  /** `mode` is changed with session/set_mode, `option` with session/set_config_option (`id` is its configId). */
  readonly kind: 'mode' | 'option';
  readonly id: string;
  readonly name: string;
  readonly type: 'select' | 'boolean';
  readonly current: string | boolean | null;
  /** The values of a select (empty for a boolean). */
  readonly choices: readonly ChatSettingChoice[];
}

/** What a child was doing in a span of its timeline. */
export type TimelinePhase = 'working' | 'waiting' | 'unknown' | 'done' | 'cancelled' | 'failed';

/** A span between two reported states; `end` null while it lasts. */
export interface ChatTimelineSegment {
  readonly start: number;
  readonly end: number | null;
  readonly phase: TimelinePhase;
  readonly label: string;
}

/** One child of a parent on the timeline (src/presentation/timeline.ts). */
export interface ChatTimelineRow {
  readonly sessionId: string;
  readonly label: string;
  readonly start: number;
  readonly segments: readonly ChatTimelineSegment[];
  /** How it ended (done, cancelled, failed) and when; null while it has not. */
  readonly end: { readonly at: number; readonly phase: TimelinePhase; readonly label: string } | null;
  /** What the child's card and tree row read its times from (spentTimes), so the row says the same. */
  readonly times: TimedRow;
}

/** The parts of a child the timeline needs to tell its time working, waiting and idle. */
interface TimedRow {
  readonly state: { readonly state: string };
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly timeSpent: TimeSpent;
}

/** What a header picker asks the host to change. */
export type ChatSettingChange =
  | { readonly kind: 'mode'; readonly modeId: string }
  | { readonly kind: 'option'; readonly configId: string; readonly value: string | boolean };

/** The session fields the webview reads: no transcript, no internal bookkeeping, no raw agent blobs. */
export interface ChatSessionHeader {
  readonly id: string;
  readonly parentId: string | null;
  /** The one name every view shows (computed by the store; never an id). */
  readonly label: string;
  readonly state: ChatSessionState;
  /** The latest state changes (at most HEADER_STATE_HISTORY), oldest first. */
  readonly stateHistory: readonly StateHistoryItem[];
  readonly childIds: readonly string[];
  /** The controller's verdicts (src/store/sessionControls.ts): what the chat offers, and what a message becomes. */
  readonly actions: SessionActions;
  /** Messages waiting in the session's queue until its turn ends (the host sends them). */
  readonly queued: readonly QueuedMessage[];
  /** Whether its tool calls may be cancelled on their own now (ACP v2); each call must also grant it (grantsCancel). */
  readonly toolCallCancel: ActionPermission;
  /** Permission and elicitation requests waiting for the user. */
  readonly awaitingUser: number;
  readonly usage: ChatUsage | null;
  /** What the session reported it spent (tokens, cost, model, context), each only where reported. */
  readonly spend: SessionUsage | null;
  /** Its usage and its subagents', as lines that say which figure is which (src/presentation/usage.ts). */
  readonly spendLines: readonly string[];
  /** When the client sent session/cancel, while no state change has come since. */
  readonly cancelRequestedAt: number | null;
  /** A child still working in the background after its launch call completed. */
  readonly background: boolean;
  /** Descendants still at work in the background (counted on the host): an ended turn says they still run. */
  readonly backgroundRunning: number;
  /** The agent that keeps this subagent's questions to itself (opencode, Gemini CLI), or null. */
  readonly questionsNotForwardedBy: string | null;
  /** The modes and config options of a root session, as pickers; empty for subagents (ACP sets them per root). */
  readonly settings: readonly ChatSessionSetting[];
  /** When each direct child started, waited on the user and ended (empty without children). */
  readonly childTimeline: readonly ChatTimelineRow[];
  /** The files this session changed (see src/store/sessionChanges.ts). */
  readonly changes: readonly ChatFileChange[];
  /** The files this session and its descendants changed (the same as `changes` without children). */
  readonly treeChanges: readonly ChatFileChange[];
  readonly createdAt: number;
  /** Time spent working and waiting on the user (see SessionRecord). */
  readonly timeSpent: TimeSpent;
  readonly updatedAt: number;
  /** The slash commands the agent advertised for this session (agent text: shown as text only). */
  readonly commands: readonly AvailableCommand[];
  /** Prompt content the agent accepts beyond text and resource links. */
  readonly promptCapabilities: PromptCapabilities;
}

/** Everything the webview needs to render one session's chat. */
export interface ChatSessionData {
  readonly header: ChatSessionHeader;
  readonly entries: readonly Entry[];
  readonly toolCalls: Readonly<Record<string, ToolCallRecord>>;
}

/** One step of the breadcrumb above the panel's root session (its ancestors, outermost first). */
export interface ChatAncestor {
  readonly id: string;
  readonly label: string;
  readonly state: string;
}

/** Output of a client-side terminal (`terminal/create`), as the client last read it. */
export type ChatTerminalOutput = Readonly<TerminalRecord>;

/**
 * Text added to the end of a text the webview has: it applies only when `offset` equals the length the
 * webview holds (otherwise the webview resyncs), so a chunk costs its own size, not the message's.
 */
interface TextAppend {
  readonly offset: number;
  readonly suffix: string;
}

/**
 * An append to a message's or session message's `text`; `rev` is the entry's new revision. `offset` counts from
 * the message's start, its `earlier` part included (the host may move a head to disk while the webview holds it).
 */
export interface EntryTextAppend extends TextAppend {
  readonly index: number;
  readonly entryId: string;
  readonly rev: number;
}

/** An append to the text of a tool call's `content[contentIndex]` (a `content` item with a text block). */
export interface ToolCallTextAppend extends TextAppend {
  readonly toolCallId: string;
  readonly contentIndex: number;
}

/** An append to a terminal's output. */
export interface TerminalOutputAppend extends TextAppend {
  readonly terminalId: string;
}

/** Changes to one session between two revisions. A session new to the panel arrives with `full`. */
export interface ChatSessionDelta {
  readonly sessionId: string;
  /** The whole session, when it joined the panel's tree since the last message. */
  readonly full?: ChatSessionData;
  /** Only the header fields that changed. */
  readonly header?: Partial<ChatSessionHeader>;
  /** Changed or added entries with their index in the session's entry list. */
  readonly entries?: readonly { readonly index: number; readonly entry: Entry }[];
  /** Entries whose only change is text added at the end (applied after `entries`). */
  readonly appends?: readonly EntryTextAppend[];
  /** Entry count after the change; a mismatch on the webview side means it must resync. */
  readonly entryCount?: number;
  /** Tool calls sent whole (new, or changed in more than appended text). */
  readonly toolCalls?: readonly ToolCallRecord[];
  readonly toolCallAppends?: readonly ToolCallTextAppend[];
}

/** A workspace folder as VS Code names it, with its absolute file-system path. */
export interface WorkspaceFolderRef {
  readonly name: string;
  readonly path: string;
}

/** Where the chat's paths are shown relative to: the workspace folders, and the home folder for `~/…`. */
export interface WorkspaceRoots {
  readonly folders: readonly WorkspaceFolderRef[];
  readonly home?: string;
}

export interface SnapshotMessage {
  readonly type: 'snapshot';
  readonly protocolVersion: number;
  readonly rootSessionId: string;
  readonly rev: number;
  /** The root session and all its descendants, parents before children. Empty when the session is gone. */
  readonly sessions: readonly ChatSessionData[];
  readonly ancestors: readonly ChatAncestor[];
  readonly terminals: readonly ChatTerminalOutput[];
  /** Why the session cannot be shown (unknown id, connection gone), when `sessions` is empty. */
  readonly unavailableReason?: string;
  /** What VS Code must keep to restore the panel after a reload; the webview stores it with setState. */
  readonly panelState?: ChatPanelState;
  /** The workspace the chat shows paths relative to (sent with every snapshot; a change of folders sends one). */
  readonly workspace?: WorkspaceRoots;
}

export interface DeltaMessage {
  readonly type: 'delta';
  readonly protocolVersion: number;
  readonly fromRev: number;
  readonly toRev: number;
  readonly sessions: readonly ChatSessionDelta[];
  readonly removedSessionIds?: readonly string[];
  readonly ancestors?: readonly ChatAncestor[];
  /** Terminals sent whole (new, or changed in more than appended output). */
  readonly terminals?: readonly ChatTerminalOutput[];
  readonly terminalAppends?: readonly TerminalOutputAppend[];
}

/** A workspace file or folder offered for `@` (paths relative to the workspace; never outside it). */
export interface FileSuggestion {
  readonly path: string;
  readonly kind: 'file' | 'folder';
  /** Open in an editor now (offered first). */
  readonly open?: boolean;
}

/** Lines of a workspace file (1-based, inclusive). */
interface LineRange {
  readonly startLine: number;
  readonly endLine: number;
}

/** A workspace file or folder (workspace-relative path). */
interface FileAttachment {
  readonly kind: 'file' | 'folder';
  readonly path: string;
}

/** Lines of a workspace file. */
interface SelectionAttachment extends LineRange {
  readonly kind: 'selection';
  readonly path: string;
}

/** A pasted or dropped image or recording, base64 as ACP carries it. */
export interface MediaAttachment {
  readonly kind: 'image' | 'audio';
  readonly name: string;
  readonly mimeType: string;
  readonly data: string;
}

export type PathAttachment = FileAttachment | SelectionAttachment;

/** Something attached to a prompt; the host turns it into ACP content blocks when it is sent. */
export type PromptAttachment = PathAttachment | MediaAttachment;

/** The answer to a webview's `searchFiles`. */
export interface FileSearchResultsMessage {
  readonly type: 'fileSearchResults';
  readonly requestId: number;
  readonly items: readonly FileSuggestion[];
}

/**
 * The answer to a webview's `loadEarlier`: the page of a message's earlier text that ends at `end`, where it starts
 * and the bytes still on disk before it; or why it could not be read (`problem`).
 */
export interface EarlierTextMessage {
  readonly type: 'earlierText';
  readonly sessionId: string;
  readonly entryId: string;
  readonly end: number;
  readonly page?: { readonly start: number; readonly text: string; readonly bytesBefore: number };
  readonly problem?: string;
}

/** The user added a file or a selection to this chat from the editor or the explorer. */
export interface AddAttachmentMessage {
  readonly type: 'addAttachment';
  readonly attachment: PathAttachment;
}

/** Puts the cursor in the prompt box (the "focus the chat's prompt" keybinding). */
interface FocusPromptMessage {
  readonly type: 'focusPrompt';
  readonly protocolVersion: number;
}

/** How a kind of code token looks under the editor's colour theme: `color` null where it is the text's colour. */
export interface CodeTokenStyle {
  readonly color: string | null;
  /** Words of `italic`, `bold`, `underline`, `strikethrough`; absent or empty for none. */
  readonly fontStyle?: string;
}

/** Code token styles by the highlighter's scope (the kinds are in src/presentation/codeTokens.ts). */
export type CodeTokenStyles = Readonly<Record<string, CodeTokenStyle>>;

/** The editor theme's code token colours; `tokens` null when the theme could not be read (the webview uses theme variables). */
export interface TokenColorsMessage {
  readonly type: 'tokenColors';
  readonly tokens: CodeTokenStyles | null;
}

/** The requests the host may refuse, and so answers (the webview shows a refusal where the user asked). */
export const ANSWERED_REQUESTS = ['prompt', 'retry', 'cancel', 'openSubagentSession', 'cancelToolCall', 'cancelTerminal', 'answerPermission', 'changeSetting'] as const;
export type AnsweredRequest = (typeof ANSWERED_REQUESTS)[number];

/** The host's answer to an answered request: done, or why not. */
export interface RequestOutcomeMessage {
  readonly type: 'requestOutcome';
  readonly request: AnsweredRequest;
  readonly sessionId: string;
  /** The tool call, terminal or permission request the request named (absent for a whole session). */
  readonly target?: string;
  /** Why the host did not do it; absent when it did. */
  readonly refused?: string;
}

/** Which answered request a message is: the request, its session and the item it names (as its answer names them). */
export type AnsweredRequestKey = Pick<RequestOutcomeMessage, 'request' | 'sessionId' | 'target'>;

/** The key of an answered request, or undefined for a message the host does not answer. */
export function answeredRequestKey(message: WebviewToHostMessage): AnsweredRequestKey | undefined {
  if (!(ANSWERED_REQUESTS as readonly string[]).includes(message.type)) return undefined;
  const answered = message as Extract<WebviewToHostMessage, { readonly type: AnsweredRequest }>;
  const target =
    answered.type === 'cancelToolCall'
      ? answered.toolCallId
      : answered.type === 'cancelTerminal'
        ? answered.terminalId
        : answered.type === 'answerPermission'
          ? answered.requestId
          : answered.type === 'retry'
            ? answered.entryId
            : undefined;
  return { request: answered.type, sessionId: answered.sessionId, ...(target !== undefined ? { target } : {}) };
}

/** What the revisioned feed posts (prompt-box messages travel outside it). */
export type FeedMessage = SnapshotMessage | DeltaMessage;

export type HostToWebviewMessage =
  | FeedMessage
  | FileSearchResultsMessage
  | EarlierTextMessage
  | AddAttachmentMessage
  | FocusPromptMessage
  | RequestOutcomeMessage
  | TokenColorsMessage;

type OpenChatWhere = 'beside' | 'tab';

/** The type of the message the page's load guard posts (see chatHtml): written once for the page and the guards. */
export const PAGE_LOAD_FAILED = 'pageLoadFailed';

export type WebviewToHostMessage =
  | { readonly type: 'ready'; readonly protocolVersion: number }
  /** The page's bundle or stylesheet (`asset`, a file name) did not load: the panel loads the page again. */
  | { readonly type: typeof PAGE_LOAD_FAILED; readonly asset: string }
  | { readonly type: 'resync'; readonly knownRev: number; readonly reason: string }
  /** Flow control: the webview has applied and painted everything up to `rev`. */
  | { readonly type: 'ack'; readonly rev: number }
  /**
   * The user's message for a session: the host sends it the way the session's verdict says (`actions.send`:
   * a prompt, a steer, its queue, or for a subagent a relay through its parent). `queue`: the user chose
   * "queue instead" while a turn runs. `resendOf`: the user's earlier message these words are an edit of
   * (*Edit and send again*): the host marks the message as sent again.
   */
  | {
      readonly type: 'prompt';
      readonly sessionId: string;
      readonly text: string;
      readonly attachments?: readonly PromptAttachment[];
      readonly queue?: boolean;
      readonly resendOf?: MessageRef;
    }
  /** *Retry*: the user's message `entryId` of `sessionId` sent again as it was (words and attachments), as a new turn. */
  | { readonly type: 'retry'; readonly sessionId: string; readonly entryId: string }
  /** Takes a queued message back (`header.queued`). */
  | { readonly type: 'unqueue'; readonly sessionId: string; readonly queuedId: string }
  /** `@` completion: workspace files and folders matching `query` (answered by `fileSearchResults`). */
  | { readonly type: 'searchFiles'; readonly requestId: number; readonly query: string }
  | { readonly type: 'cancel'; readonly sessionId: string }
  /** Load a subagent's own session (its actions' `openSubagent`). */
  | { readonly type: 'openSubagentSession'; readonly sessionId: string }
  | { readonly type: 'cancelToolCall'; readonly sessionId: string; readonly toolCallId: string }
  | { readonly type: 'cancelTerminal'; readonly sessionId: string; readonly terminalId: string }
  | {
      readonly type: 'answerPermission';
      readonly sessionId: string;
      readonly requestId: string;
      /** `null` dismisses the request (answered as cancelled). */
      readonly optionId: string | null;
    }
  | { readonly type: 'openFile'; readonly path: string; readonly line?: number }
  | { readonly type: 'openDiff'; readonly sessionId: string; readonly toolCallId: string; readonly index: number }
  | { readonly type: 'openChat'; readonly sessionId: string; readonly where: OpenChatWhere }
  | { readonly type: 'openChanges'; readonly sessionId: string; readonly scope: ChangesScope }
  | { readonly type: 'changeSetting'; readonly sessionId: string; readonly change: ChatSettingChange }
  | { readonly type: 'openLink'; readonly url: string }
  | { readonly type: 'copy'; readonly text: string }
  /** Copies a message whose earlier text the host keeps on disk: the host reads it back whole. */
  | { readonly type: 'copyMessage'; readonly sessionId: string; readonly entryId: string }
  /** Asks for the page of a message's earlier text that ends at `end` (its `earlier.chars` as the webview holds it). */
  | { readonly type: 'loadEarlier'; readonly sessionId: string; readonly entryId: string; readonly end: number }
  /** A code block's toolbar: insert at the editor's cursor, into the terminal, or apply to the file it names. */
  | { readonly type: 'codeBlock'; readonly action: CodeBlockAction; readonly code: string; readonly path?: string };

/** A message of the chat: its session and entry. */
export interface MessageRef {
  readonly sessionId: string;
  readonly entryId: string;
}

/** What a code block's toolbar asks the host for (Copy is `copy`). */
export type CodeBlockAction = 'insert' | 'terminal' | 'apply';

/** The state VS Code keeps for a panel across reloads (WebviewPanelSerializer). */
export interface ChatPanelState {
  readonly connectionId: string;
  readonly sessionId: string;
}
