// How the chat marks a message the user sent into a running turn (a steer), for a subagent (a relay) or again (a
// retry or an edit), a message whose echo the agent recorded differently, and a user message the agent added: one line under the
// message each, the same words wherever it shows. Pure; imports only src/protocol.
import type { MessageEntry, RelayNote, ResendNote, SteerDelivery } from '../protocol/transcript';
import { plainText } from './plainText';

export interface PresentedDelivery {
  /** Codicon id. */
  readonly icon: string;
  readonly text: string;
  /** The message did not reach the agent: the chat offers to put its words back in the prompt box. */
  readonly resend: boolean;
}

const STEER: Readonly<Record<SteerDelivery['status'], Omit<PresentedDelivery, 'resend'>>> = {
  sending: { icon: 'loading', text: 'Sending into the running turn…' },
  accepted: { icon: 'check', text: 'Steered into the running turn: accepted; the agent has not shown it read it yet' },
  landed: { icon: 'check-all', text: 'Steered into the running turn: the agent read it' },
  'new-turn': { icon: 'play', text: 'No turn was running: the agent started one for it' },
  'as-prompt': { icon: 'send', text: 'No turn was running any more: sent as a new prompt' },
  failed: { icon: 'error', text: 'Not delivered' },
  'not-delivered': { icon: 'warning', text: 'Not delivered' },
};

/** The line under a steered message: how far it got, and for a lost one why. */
function presentSteer(steer: SteerDelivery): PresentedDelivery {
  const shown = STEER[steer.status] ?? STEER.accepted;
  const lost = steer.status === 'failed' || steer.status === 'not-delivered';
  return { ...shown, text: lost && steer.reason ? `${shown.text}: ${steer.reason}` : shown.text, resend: lost };
}

/**
 * The line for a relay. On the parent: who it is for. On the subagent's copy: which session took it,
 * and when the parent passed it on (its next message to the subagent) or the subagent next worked.
 */
function presentRelay(relay: RelayNote, clock: (at: number) => string): PresentedDelivery {
  if (relay.side === 'parent') return { icon: 'reply', text: `For subagent "${relay.childLabel}" (relayed by this session)`, resend: false };
  const sent = `Sent to "${relay.parentLabel}" for this subagent`;
  if (!relay.passedOn) return { icon: 'reply', text: `${sent}; not passed on yet`, resend: false };
  const how = relay.passedOn.how === 'message' ? `"${relay.parentLabel}" messaged this subagent` : 'this subagent was at work again';
  return { icon: 'reply', text: `${sent}; ${how} at ${clock(relay.passedOn.at)}`, resend: false };
}

/** A message sent again: a new turn after the last one (ACP has no rewind), and the turns after the original stay. */
function presentResend(resend: ResendNote, clock: (at: number) => string): PresentedDelivery {
  const how = resend.how === 'retry' ? 'Sent again' : 'Edited and sent again';
  return { icon: resend.how === 'retry' ? 'refresh' : 'edit', text: `${how}: your message of ${clock(resend.of.at)}, as a new turn; the turns after it stay`, resend: false };
}

/** Above the prompt box while its words are an edit of an earlier message. */
export function editingNotice(at: number, clock: (at: number) => string): string {
  return `Editing your message of ${clock(at)}: it goes as a new turn after the last one, marked as edited`;
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
  if (entry.addedByAgent) lines.push({ icon: 'hubot', text: 'Added by the agent: this message was not sent from here', resend: false, kind: 'added-by-agent' });
  if (entry.agentEcho !== undefined) {
    const text = entry.agentEcho === '' ? 'The agent recorded this message as empty' : `The agent recorded this message as: ${plainText(entry.agentEcho)}`;
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
