// A refusal shown where the user asked: the host's reason for not doing a request (cancel, send, open…), as
// small text under the control. Announced once as it appears; it stays until the user asks again.
import { html, nothing, type TemplateResult } from 'lit';
import type { AnsweredRequestKey } from '../../src/protocol/webviewMessages';
import type { ChatStore } from '../state/chatStore';
import { codicon } from './base';

/** The refusal of `key` asked from `place` (the asking element's tag name), or nothing. */
export function refusalNote(store: ChatStore | undefined, key: AnsweredRequestKey, place: string): TemplateResult | typeof nothing {
  const reason = store?.ui.refusal(key, place);
  return reason ? html`<p class="sc-refusal" role="alert">${codicon('warning')} ${reason}</p>` : nothing;
}
