// Components ask for host actions by dispatching one typed, bubbling event; the app forwards it to the host.
import type { WebviewToHostMessage } from '../src/protocol/webviewMessages';

export const HOST_REQUEST_EVENT = 'subchats-host-request';
/** Asks the app to reveal a session's card (expanding its ancestors) in this panel. */
export const REVEAL_SESSION_EVENT = 'subchats-reveal-session';

/** Asks the app to put words back in the panel's prompt box (a message that did not reach the agent). */
export const RESTORE_DRAFT_EVENT = 'subchats-restore-draft';

declare global {
  interface HTMLElementEventMap {
    [HOST_REQUEST_EVENT]: CustomEvent<WebviewToHostMessage>;
    [REVEAL_SESSION_EVENT]: CustomEvent<{ sessionId: string }>;
    [RESTORE_DRAFT_EVENT]: CustomEvent<{ text: string }>;
  }
}

export function requestHost(from: EventTarget, message: WebviewToHostMessage): void {
  from.dispatchEvent(new CustomEvent(HOST_REQUEST_EVENT, { detail: message, bubbles: true, composed: true }));
}

export function revealSession(from: EventTarget, sessionId: string): void {
  from.dispatchEvent(new CustomEvent(REVEAL_SESSION_EVENT, { detail: { sessionId }, bubbles: true, composed: true }));
}

export function restoreDraft(from: EventTarget, text: string): void {
  from.dispatchEvent(new CustomEvent(RESTORE_DRAFT_EVENT, { detail: { text }, bubbles: true, composed: true }));
}
