// v2 prompts and their echoes. The chat shows the client's copy of each prompt it sends; the agent
// acknowledges each session/prompt with the messageId it inserted the prompt as, and echoes it as a user
// message with that id, in either order. Only an acknowledgement says which copy an id is: an echo of an id
// no ack has named yet is held (the copy already shows the words) while prompts of ours wait for theirs, and
// lands on its copy when the ack comes, as the agent's account of it (the copy keeps what was sent:
// agentAccounts.ts). Held echoes no ack claims are messages the client never sent: they are shown as messages
// of their own, marked as the agent's, once none of ours waits. Nothing is guessed, so nothing is shown twice
// or moved.
import type { MessageEntry, SessionRecord } from '../model';
import type { SessionIndex } from '../sessionIndex';
import type { RecordKeeper } from '../recordKeeper';
import { markAddedByAgent, setAccount } from './agentAccounts';

/** Remembers the copy of a v2 prompt until its acknowledgement. */
export function awaitEcho(index: SessionIndex, entry: MessageEntry, promptKey: string): void {
  index.promptCopies.push({ entry, promptKey });
}

/**
 * Where a user message of an id no message has goes: while prompts of ours wait for their ack, a held entry
 * (not shown); else the oldest copy acknowledged without an id (an agent of an older draft answers `{}`), whose
 * echo it then is; else nowhere (a message of its own).
 */
export function heldEcho(core: RecordKeeper, index: SessionIndex, messageId: string): MessageEntry | undefined {
  if (index.promptCopies.length === 0) {
    const unnamed = index.unnamedCopies.shift();
    if (unnamed) name(index, unnamed, messageId);
    return unnamed;
  }
  let held = index.heldEchoes.get(messageId);
  if (!held) {
    held = { kind: 'message', id: core.nextEntryId('msg'), rev: core.rev, at: core.at, role: 'user', text: '', attachments: [], messageId };
    index.heldEchoes.set(messageId, held);
  }
  return held;
}

export function isHeld(index: SessionIndex, entry: MessageEntry): boolean {
  return entry.messageId !== undefined && index.heldEchoes.get(entry.messageId) === entry;
}

/** The agent inserted the prompt of request `promptKey` as message `messageId`: its copy takes that id (and a held echo of it). */
export function acknowledgePrompt(core: RecordKeeper, session: SessionRecord, promptKey: string, messageId: string): void {
  const index = core.indexOf(session);
  const at = index.promptCopies.findIndex((copy) => copy.promptKey === promptKey);
  if (at < 0) return;
  const { entry } = index.promptCopies.splice(at, 1)[0]!;
  if (messageId === '') {
    index.unnamedCopies.push(entry);
  } else if (index.messages.has(`user\0${messageId}`)) {
    // Only an agent that gives two messages one id gets here: the copy stays as it is.
    core.diagnose('invalid-message', `session/prompt acknowledged as message ${JSON.stringify(messageId)}, which is another message already`);
  } else {
    const held = index.heldEchoes.get(messageId);
    index.heldEchoes.delete(messageId);
    land(core, session, entry, messageId, held);
  }
  showUnclaimedEchoes(core, session);
}

/** The agent refused the prompt: no acknowledgement or echo comes for it. */
export function forgetPrompt(core: RecordKeeper, session: SessionRecord, promptKey: string): void {
  const index = core.indexOf(session);
  const at = index.promptCopies.findIndex((copy) => copy.promptKey === promptKey);
  if (at < 0) return;
  index.promptCopies.splice(at, 1);
  showUnclaimedEchoes(core, session);
}

/** The copy is message `messageId`: its echo, when it comes, finds it by that id. */
function name(index: SessionIndex, entry: MessageEntry, messageId: string): void {
  (entry as { messageId?: string }).messageId = messageId;
  index.messages.set(`user\0${messageId}`, entry);
}

/** Copy `entry` is message `messageId`: the echo held for it is the agent's account of it so far. */
function land(core: RecordKeeper, session: SessionRecord, entry: MessageEntry, messageId: string, held: MessageEntry | undefined): void {
  name(core.indexOf(session), entry, messageId);
  if (held) setAccount(core, session, entry, held.text);
  core.touchEntry(session, entry);
}

/**
 * Once no prompt of ours waits for its ack, held echoes are settled in the order they came: the oldest copy
 * acknowledged without an id takes the first, and the rest are messages the client never sent (another
 * client's prompts, or the agent's own), each a message of its own. Held echoes only exist while prompts of
 * ours wait, never in a replayed history: they are always marked.
 */
function showUnclaimedEchoes(core: RecordKeeper, session: SessionRecord): void {
  const index = core.indexOf(session);
  if (index.promptCopies.length > 0) return;
  for (const [messageId, held] of index.heldEchoes) {
    const unnamed = index.unnamedCopies.shift();
    if (unnamed) {
      land(core, session, unnamed, messageId, held);
    } else if (held.text !== '' || held.attachments.length > 0) {
      index.messages.set(`user\0${messageId}`, held);
      markAddedByAgent(held);
      core.addEntry(session, held);
      core.touchEntry(session, held);
    }
  }
  index.heldEchoes.clear();
}
