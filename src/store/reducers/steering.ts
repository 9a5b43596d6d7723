// Messages the user steers into a running turn (`_session/steering`, shipped by claude-agent-acp and codex-acp).
// The chat shows each where it was sent, with how far it got: sending → accepted (`injected`) → landed (the
// agent showed it read it: a v2 `user_message_chunk` echo, or at v1 its next words), or `new-turn` / `as-prompt`
// when no turn ran, `failed` when refused, and `not-delivered` when the turn was cancelled before it landed
// (codex drops such a steer silently). Nothing is guessed beyond that: an accepted steer stays "accepted".
import type { MessageEntry, SessionRecord, SteerDelivery } from '../model';
import type { SteerCopy } from '../sessionIndex';
import type { ReducerContext } from '../reducerContext';
import { t } from '../../presentation/l10n';
import { isAdvertised } from '../agentCapabilities';
import { asString, type JsonObject } from '../wireMessage';
import { keepAsSent } from './agentAccounts';
import { markResent, newUserMessage } from './messageBlocks';
import { markRelay } from './relays';
import { addNotice } from './sessionDetails';
import { AgentMethod } from '../../protocol/acpMethods';

export const STEER_METHOD = AgentMethod.sessionSteering;

/** The client sent a steer: its words show at once, as sending. */
export function startSteer(parts: ReducerContext, session: SessionRecord, key: string, blocks: unknown[]): void {
  const { core } = parts;
  const entry = newUserMessage(core, blocks);
  entry.steer = { status: 'sending' };
  markResent(entry, blocks);
  const wireText = entry.text;
  keepAsSent(core, entry);
  markRelay(parts, session, entry);
  core.addEntry(session, entry);
  core.indexOf(session).openSteers.push({ entry, key, wireText });
}

/** The agent answered the steer request `key` (`result`), or refused it (`error`). */
export function settleSteer(parts: ReducerContext, session: SessionRecord, key: string, answer: { result: JsonObject } | { error: string }): void {
  const index = parts.core.indexOf(session);
  const copy = index.openSteers.find((open) => open.key === key);
  if (!copy) return;
  if ('error' in answer) {
    close(parts, session, copy, { status: 'failed', reason: t('The agent refused it: {0}', answer.error) });
    return;
  }
  const outcome = asString(answer.result['outcome']);
  if (outcome === 'injected') {
    if (copy.entry.steer?.status === 'sending') setStatus(parts, session, copy.entry, { status: 'accepted' });
  } else if (outcome === 'promptRequired') {
    close(parts, session, copy, { status: 'as-prompt' });
    index.promptedSteer = copy;
  } else if (outcome === 'startedNewTurn') {
    close(parts, session, copy, { status: 'new-turn' });
  } else {
    parts.core.diagnose('invalid-message', `${STEER_METHOD} answered with unknown outcome ${JSON.stringify(answer.result['outcome'])}`);
    setStatus(parts, session, copy.entry, { status: 'accepted' });
  }
}

/**
 * A session/prompt with the words of the steer the agent just answered `promptRequired`: the prompt is that
 * message, so it takes the steer's entry instead of showing the words twice.
 */
export function takePromptedSteer(parts: ReducerContext, session: SessionRecord, text: string): MessageEntry | undefined {
  const index = parts.core.indexOf(session);
  const copy = index.promptedSteer;
  index.promptedSteer = undefined;
  return copy && copy.wireText === text ? copy.entry : undefined;
}

/**
 * v2: a user message of an id no prompt of ours has is the agent inserting a steer (codex-acp): the oldest open
 * steer whose words it starts with has landed, and the echo stays off the screen (the steer shows the words).
 */
export function claimSteerEcho(parts: ReducerContext, session: SessionRecord, messageId: string, text: string): MessageEntry | undefined {
  const index = parts.core.indexOf(session);
  if (index.openSteers.length === 0 || text === '') return undefined;
  const copy = index.openSteers.find((open) => open.wireText.startsWith(text));
  if (!copy) return undefined;
  index.messages.set(`user\0${messageId}`, copy.entry);
  close(parts, session, copy, { status: 'landed' });
  return copy.entry;
}

/** v1 has no echo: the agent's next words after it accepted a steer are the sign that it read it. */
export function noteAgentWords(parts: ReducerContext, session: SessionRecord): void {
  if (parts.protocol.version !== 1) return;
  const index = parts.core.indexOf(session);
  for (const copy of [...index.openSteers]) if (copy.entry.steer?.status === 'accepted') close(parts, session, copy, { status: 'landed' });
}

/** The turn ended: a cancelled turn loses the steers the agent had not shown it read. */
export function endSteers(parts: ReducerContext, session: SessionRecord, stopReason: string): void {
  const index = parts.core.indexOf(session);
  if (index.openSteers.length === 0) return;
  for (const copy of [...index.openSteers]) {
    if (stopReason === 'cancelled') {
      close(parts, session, copy, { status: 'not-delivered', reason: t('The turn was cancelled before the agent showed that it read this message; it may never have reached the agent.') });
    } else if (copy.entry.steer?.status === 'accepted') {
      // The turn it joined is over: nothing more will say whether it was read.
      index.openSteers.splice(index.openSteers.indexOf(copy), 1);
    }
  }
}

/** The agent went away: a steer still sending never got an answer. */
export function abandonSteers(parts: ReducerContext, session: SessionRecord): void {
  const index = parts.core.indexOf(session);
  for (const copy of [...index.openSteers]) {
    if (copy.entry.steer?.status === 'sending') close(parts, session, copy, { status: 'failed', reason: t('The agent went away before it answered.') });
    else index.openSteers.splice(index.openSteers.indexOf(copy), 1);
  }
}

function close(parts: ReducerContext, session: SessionRecord, copy: SteerCopy, delivery: SteerDelivery): void {
  const open = parts.core.indexOf(session).openSteers;
  const at = open.indexOf(copy);
  if (at >= 0) open.splice(at, 1);
  setStatus(parts, session, copy.entry, delivery);
}

function setStatus(parts: ReducerContext, session: SessionRecord, entry: MessageEntry, delivery: SteerDelivery): void {
  entry.steer = delivery;
  parts.core.touchEntry(session, entry);
}

/**
 * A running subagent moved to the background (Claude does this to a foreground subagent when its parent is
 * steered). It keeps working after its parent's turn, and cancelling the parent no longer stops it: both
 * chats say so, and where the agent grants it the subagent's own cancel is offered (the controller decides).
 */
export function noteMovedToBackground(parts: ReducerContext, child: SessionRecord, parent: SessionRecord): void {
  if (child.background || child.parentId !== parent.id || child.state.state !== 'running') return;
  child.background = true;
  parts.core.touch(child);
  const moved = steeredThisTurn(parent)
    ? t('"{0}" was moved to the background after you steered "{1}". It keeps working, and cancelling "{1}" does not stop it.', child.label, parent.label)
    : t('"{0}" was moved to the background by the agent. It keeps working, and cancelling "{1}" does not stop it.', child.label, parent.label);
  const stop = isAdvertised(child.capabilities?.['cancel'])
    ? t('To stop it, cancel "{0}" itself.', child.label)
    : t('The agent offers no way to stop it alone.');
  const description = `${moved} ${stop}`;
  addNotice(parts, child, 'info', t('Moved to the background'), description);
  addNotice(parts, parent, 'info', t('"{0}" moved to the background', child.label), description);
}

/** A steer was sent since the session's last prompt. */
function steeredThisTurn(session: SessionRecord): boolean {
  for (let i = session.entries.length - 1; i >= 0; i--) {
    const entry = session.entries[i]!;
    if (entry.kind !== 'message' || entry.role !== 'user') continue;
    if (entry.steer) return true;
    if (!entry.relay || entry.relay.side === 'parent') return false;
  }
  return false;
}
