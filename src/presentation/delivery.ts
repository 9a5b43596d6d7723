// How the chat marks a message the user sent into a running turn (a steer), for a subagent (a relay) or again (a
// retry or an edit), a message whose echo the agent recorded differently, and a user message the agent added: one line under the
// message each, the same words wherever it shows. Pure; imports only src/protocol.
import type { MessageEntry, RelayNote, ResendNote, SteerDelivery } from '../protocol/transcript';
import { t } from './l10n';
import { plainText } from './plainText';

export interface PresentedDelivery {
  /** Codicon id. */
  readonly icon: string;
  readonly text: string;
  /** The message did not reach the agent: the chat offers to put its words back in the prompt box. */
  readonly resend: boolean;
}

/** Words are made when shown (the translation bundle is not there while modules load). */
const STEER: Readonly<Record<SteerDelivery['status'], () => Omit<PresentedDelivery, 'resend'>>> = {
  sending: () => ({ icon: 'loading', text: t('Sending into the running turn…') }),
  accepted: () => ({ icon: 'check', text: t('Steered into the running turn: accepted; the agent has not shown it read it yet') }),
  landed: () => ({ icon: 'check-all', text: t('Steered into the running turn: the agent read it') }),
  'new-turn': () => ({ icon: 'play', text: t('No turn was running: the agent started one for it') }),
  'as-prompt': () => ({ icon: 'send', text: t('No turn was running any more: sent as a new prompt') }),
  failed: () => ({ icon: 'error', text: t('Not delivered') }),
  'not-delivered': () => ({ icon: 'warning', text: t('Not delivered') }),
};

/** The line under a steered message: how far it got, and for a lost one why. */
function presentSteer(steer: SteerDelivery): PresentedDelivery {
  const shown = (STEER[steer.status] ?? STEER.accepted)();
  const lost = steer.status === 'failed' || steer.status === 'not-delivered';
  return { ...shown, text: lost && steer.reason ? t('Not delivered: {0}', steer.reason) : shown.text, resend: lost };
}

/**
 * The line for a relay. On the parent: who it is for. On the subagent's copy: which session took it,
 * and when the parent passed it on (its next message to the subagent) or the subagent next worked.
 */
function presentRelay(relay: RelayNote, clock: (at: number) => string): PresentedDelivery {
  if (relay.side === 'parent') return { icon: 'reply', text: t('For subagent "{0}" (relayed by this session)', relay.childLabel), resend: false };
  if (!relay.passedOn) return { icon: 'reply', text: t('Sent to "{0}" for this subagent; not passed on yet', relay.parentLabel), resend: false };
  const at = clock(relay.passedOn.at);
  const text = relay.passedOn.how === 'message'
    ? t('Sent to "{0}" for this subagent; "{0}" messaged this subagent at {1}', relay.parentLabel, at)
    : t('Sent to "{0}" for this subagent; this subagent was at work again at {1}', relay.parentLabel, at);
  return { icon: 'reply', text, resend: false };
}

/** A message sent again: a new turn after the last one (ACP has no rewind), and the turns after the original stay. */
function presentResend(resend: ResendNote, clock: (at: number) => string): PresentedDelivery {
  const at = clock(resend.of.at);
  if (resend.how === 'retry') return { icon: 'refresh', text: t('Sent again: your message of {0}, as a new turn; the turns after it stay', at), resend: false };
  return { icon: 'edit', text: t('Edited and sent again: your message of {0}, as a new turn; the turns after it stay', at), resend: false };
}

/** Above the prompt box while its words are an edit of an earlier message. */
export function editingNotice(at: number, clock: (at: number) => string): string {
  return t('Editing your message of {0}: it goes as a new turn after the last one, marked as edited', clock(at));
}

/** Which line a message carries (the chat styles each kind). */
export type DeliveryKind = SteerDelivery['status'] | 'relay' | 'agent-echo' | 'added-by-agent' | 'resend';

/**
 * The lines under a message, in order: who a relay is for, how far a steer got, that the agent added it, and
 * what the agent recorded where that differs from the words sent (agent text, shown as plain text).
 */
export function presentDeliveries(entry: MessageEntry, clock: (at: number) => string): (PresentedDelivery & { readonly kind: DeliveryKind })[] {
  const lines: (PresentedDelivery & { readonly kind: DeliveryKind })[] = [];
  if (entry.resend) lines.push({ ...presentResend(entry.resend, clock), kind: 'resend' });
  if (entry.relay) lines.push({ ...presentRelay(entry.relay, clock), kind: 'relay' });
  if (entry.steer) lines.push({ ...presentSteer(entry.steer), kind: entry.steer.status });
  if (entry.addedByAgent) lines.push({ icon: 'hubot', text: t('Added by the agent: this message was not sent from here'), resend: false, kind: 'added-by-agent' });
  if (entry.agentEcho !== undefined) {
    const text = entry.agentEcho === '' ? t('The agent recorded this message as empty') : t('The agent recorded this message as: {0}', plainText(entry.agentEcho));
    lines.push({ icon: 'info', text, resend: false, kind: 'agent-echo' });
  }
  return lines;
}

/**
 * Whether the user can send this message again (Retry, or Edit and send again): their own words as sent from
 * here. Not a message the agent added, nor a parent's copy of a relay (its words went to a subagent).
 */
export function isResendable(entry: MessageEntry): boolean {
  return entry.role === 'user' && entry.addedByAgent !== true && entry.relay?.side !== 'parent';
}
