// Messages between the extension host and the chat webview. Shared by both sides; the webview imports it
// type-only. The host is the source of truth: it sends a full snapshot, then revisioned deltas.
import type { Entry, SessionActions, SessionRecord, TerminalRecord, ToolCallRecord } from '../store/model';

export const WEBVIEW_PROTOCOL_VERSION = 1;

/** A session's fields without its transcript and terminals, plus what the user may do to it now. */
export type ChatSessionHeader = Omit<SessionRecord, 'entries' | 'toolCalls' | 'terminals'> & {
  readonly actions: SessionActions;
};

/** Everything the webview needs to render one session's chat. */
export interface ChatSessionData {
  readonly header: ChatSessionHeader;
  readonly entries: readonly Entry[];
  readonly toolCalls: Readonly<Record<string, ToolCallRecord>>;
}

/** One step of the breadcrumb above the panel's root session (its ancestors, outermost first). */
export interface ChatAncestor {
  readonly id: string;
  readonly title: string | null;
  readonly description: string | null;
  readonly subagentType: string | null;
  readonly state: string;
}

/** Output of a client-side terminal (`terminal/create`), as the client last read it. */
export type ChatTerminalOutput = Readonly<TerminalRecord>;

/** Changes to one session between two revisions. A session new to the panel arrives with `full`. */
export interface ChatSessionDelta {
  readonly sessionId: string;
  /** The whole session, when it joined the panel's tree since the last message. */
  readonly full?: ChatSessionData;
  readonly header?: ChatSessionHeader;
  /** Changed or added entries with their index in the session's entry list. */
  readonly entries?: readonly { readonly index: number; readonly entry: Entry }[];
  /** Entry count after the change; a mismatch on the webview side means it must resync. */
  readonly entryCount?: number;
  readonly toolCalls?: readonly ToolCallRecord[];
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
}

export interface DeltaMessage {
  readonly type: 'delta';
  readonly fromRev: number;
  readonly toRev: number;
  readonly sessions: readonly ChatSessionDelta[];
  readonly removedSessionIds?: readonly string[];
  readonly ancestors?: readonly ChatAncestor[];
  readonly terminals?: readonly ChatTerminalOutput[];
}

export type HostToWebviewMessage = SnapshotMessage | DeltaMessage;

export type OpenChatWhere = 'beside' | 'tab';

export type WebviewToHostMessage =
  | { readonly type: 'ready'; readonly protocolVersion: number }
  | { readonly type: 'resync'; readonly knownRev: number; readonly reason: string }
  | { readonly type: 'prompt'; readonly sessionId: string; readonly text: string }
  | { readonly type: 'cancel'; readonly sessionId: string }
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
  | { readonly type: 'openLink'; readonly url: string }
  | { readonly type: 'copy'; readonly text: string };

export type WebviewToHostType = WebviewToHostMessage['type'];

/** The state VS Code keeps for a panel across reloads (WebviewPanelSerializer). */
export interface ChatPanelState {
  readonly connectionId: string;
  readonly sessionId: string;
}
