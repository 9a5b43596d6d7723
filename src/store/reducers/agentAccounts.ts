// The user's words as the client sent them are the record of what the user said. The agent's echo of such a
// message (v2 `user_message` / `user_message_chunk`, or user chunks that continue it) is its account of it:
// kept beside the words where it says something else, never in their place. A user message the client never
// sent is the agent's: marked so, and it never names the session. A replayed history (v1 session/load, v2
// session/resume with replayFrom) is the record itself: its user messages are not marked.
import type { MessageEntry, SessionRecord } from '../model';
import { drivesTurns } from '../stateRules';
import type { RecordKeeper } from '../recordKeeper';
import type { ReducerContext } from '../reducerContext';
import { appendText } from '../textRope';
import { fillFromBlocks } from './messageBlocks';

/** The client sent `entry` (a prompt or a steer); call before a relay label is taken off its text. */
export function keepAsSent(core: RecordKeeper, entry: MessageEntry): void {
  core.sentWords.set(entry, { wire: entry.text });
}

/** Words no agent update rewrites: messages the client sent, and a relay's copy in the subagent's chat. */
export function keepsUserWords(core: RecordKeeper, entry: MessageEntry): boolean {
  return entry.role === 'user' && (core.sentWords.has(entry) || entry.steer !== undefined || entry.relay !== undefined);
}

/** More of the agent's echo of a message the client sent (its first chunk starts the account). */
export function extendAccount(core: RecordKeeper, session: SessionRecord, entry: MessageEntry, text: string): void {
  const sent = core.sentWords.get(entry);
  if (sent) setAccount(core, session, entry, appendText(sent.account ?? '', text));
}

/** The agent's whole account of a message the client sent, from its content blocks (a v2 upsert). */
export function replaceAccount(core: RecordKeeper, session: SessionRecord, entry: MessageEntry, blocks: unknown[]): void {
  const told: Pick<MessageEntry, 'text' | 'attachments'> = { text: '', attachments: [] };
  fillFromBlocks(told, blocks);
  setAccount(core, session, entry, told.text);
}

/** The agent's account of a message the client sent is `account`: shown beside the words only where it differs. */
export function setAccount(core: RecordKeeper, session: SessionRecord, entry: MessageEntry, account: string): void {
  const sent = core.sentWords.get(entry);
  if (!sent) return;
  sent.account = account;
  const shown = account === sent.wire ? undefined : account;
  if (shown === entry.agentEcho) return;
  if (shown === undefined) delete entry.agentEcho;
  else entry.agentEcho = shown;
  core.touchEntry(session, entry);
}

/**
 * A user message that came in the agent's updates and is no message the client sent: in a session whose
 * prompts the client sends, it is the agent's, unless the agent is replaying the session's history.
 */
export function noteAgentUserMessage(parts: ReducerContext, session: SessionRecord, entry: MessageEntry): void {
  if (!drivesTurns(session) || parts.replaying.has(parts.tree.rootOf(session.id)?.id ?? session.id)) return;
  markAddedByAgent(entry);
}

/** The agent put this user message in the conversation; the client never sent it. */
export function markAddedByAgent(entry: MessageEntry): void {
  entry.addedByAgent = true;
}
