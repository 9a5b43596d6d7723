// Components ask for host actions by dispatching one typed, bubbling event; the app forwards it to the host.
import type { MessageRef, WebviewToHostMessage } from '../src/protocol/webviewMessages';

export const HOST_REQUEST_EVENT = 'subchats-host-request';
/** Asks the app to reveal a session's card (expanding its ancestors) in this panel. */
export const REVEAL_SESSION_EVENT = 'subchats-reveal-session';

/**
 * Asks the app to put words back in the panel's prompt box (a message that did not reach the agent, or one the
 * user edits to send again: `editOf` names it and when it was sent, and the send is marked as its edit).
 */
export const RESTORE_DRAFT_EVENT = 'subchats-restore-draft';

declare global {
  interface HTMLElementEventMap {
    [HOST_REQUEST_EVENT]: CustomEvent<WebviewToHostMessage>;
    [REVEAL_SESSION_EVENT]: CustomEvent<{ sessionId: string }>;
    [RESTORE_DRAFT_EVENT]: CustomEvent<RestoredDraft>;
  }
}

export function requestHost(from: EventTarget, message: WebviewToHostMessage): void {
  from.dispatchEvent(new CustomEvent(HOST_REQUEST_EVENT, { detail: message, bubbles: true, composed: true }));
}

export function revealSession(from: EventTarget, sessionId: string): void {
  from.dispatchEvent(new CustomEvent(REVEAL_SESSION_EVENT, { detail: { sessionId }, bubbles: true, composed: true }));
}

/** Words for the prompt box, and the earlier message they are an edit of. */
export interface RestoredDraft {
  readonly text: string;
  readonly editOf?: EditedMessage;
}

/** The message being edited: which it is, and when it was sent (what the prompt box names it by). */
export interface EditedMessage {
  readonly ref: MessageRef;
  readonly at: number;
}

export function restoreDraft(from: EventTarget, draft: RestoredDraft): void {
  from.dispatchEvent(new CustomEvent(RESTORE_DRAFT_EVENT, { detail: draft, bubbles: true, composed: true }));
}
