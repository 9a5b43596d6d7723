// v2 prompts and their echoes. The chat shows the client's copy of each prompt it sends; the agent
// acknowledges each session/prompt with the messageId it inserted the prompt as, and echoes it as a user
// message with that id — acks and echoes in either order, interleaved across prompts in flight. An echo of an
// id no ack has named yet is taken for the oldest copy still without an id (agents insert in order); an ack
// that shows such a guess wrong moves the echo to its own copy. So each copy ends up with its own id and
// words, each shown once, in the order the client sent them.
import type { ContentBlock, MessageEntry, SessionRecord } from '../model';
import type { SessionIndex, StoreCore } from '../storeCore';

/** A v2 prompt the client sent, until the agent has both acknowledged and echoed it. */
export interface PromptCopy {
  readonly entry: MessageEntry;
  /** The session/prompt request (its ledger key): its acknowledgement names this copy's messageId. */
  readonly promptKey: string;
  /** What the client sent: shown again when an echo taken for this copy turns out to be another prompt's. */
  readonly sent: { readonly text: string; readonly attachments: readonly ContentBlock[] };
  acknowledged: boolean;
  /** The echo of the copy's messageId came: its words replaced the client's. */
  echoed: boolean;
}

/** Remembers the copy of a v2 prompt until its acknowledgement and its echo. */
export function awaitEcho(index: SessionIndex, entry: MessageEntry, promptKey: string): void {
  index.promptCopies.push({ entry, promptKey, sent: { text: entry.text, attachments: [...entry.attachments] }, acknowledged: false, echoed: false });
}

/** An echo of an id no message has: the oldest copy still without an id takes it. */
export function bindEcho(index: SessionIndex, messageId: string): MessageEntry | undefined {
  const copy = oldestUnbound(index);
  if (!copy) return undefined;
  bind(index, copy.entry, messageId);
  return copy.entry;
}

/** The echo's first words reached `entry`: true when they replace a client copy's (the caller clears it). */
export function takeEcho(index: SessionIndex, entry: MessageEntry): boolean {
  const copy = index.promptCopies.find((c) => c.entry === entry);
  if (!copy || copy.echoed) return false;
  copy.echoed = true;
  settle(index, copy);
  return true;
}

/**
 * The agent inserted the prompt of request `promptKey` as message `messageId`. Its copy takes that id; when
 * an echo of that id was taken for another copy, the echo's words move here, that copy shows what was sent
 * again, and the echo this copy had been taken for moves on (rehome): no message is shown twice or lost.
 */
export function acknowledgePrompt(core: StoreCore, session: SessionRecord, promptKey: string, messageId: string): void {
  const index = core.indexOf(session);
  const copy = index.promptCopies.find((c) => c.promptKey === promptKey);
  if (!copy || messageId === '') return;
  const entry = copy.entry;
  if (entry.messageId === messageId) {
    copy.acknowledged = true;
    settle(index, copy);
    return;
  }
  const holder = index.messages.get(`user\0${messageId}`);
  const holderCopy = holder && index.promptCopies.find((c) => c.entry === holder);
  if (holderCopy?.acknowledged || (holder && !holderCopy && entry.messageId === undefined)) {
    // Only an agent that gives two messages one id gets here: the copy stays as it is.
    core.diagnose('invalid-message', `session/prompt acknowledged as message ${JSON.stringify(messageId)}, which is another message already`);
    index.promptCopies.splice(index.promptCopies.indexOf(copy), 1);
    return;
  }
  copy.acknowledged = true;
  if (!holder && entry.messageId === undefined) {
    // The usual case: acknowledged before its echo; the echo will replace the copy's words.
    bind(index, entry, messageId);
    core.touchEntry(session, entry);
    return;
  }
  // What this copy was taken for before: another prompt's echo, which needs its own copy.
  const misplaced = entry.messageId === undefined ? undefined : { messageId: entry.messageId, text: entry.text, attachments: entry.attachments, echoed: copy.echoed };
  unbind(index, entry);
  if (holder) {
    entry.text = holder.text;
    entry.attachments = holder.attachments;
    copy.echoed = holderCopy?.echoed ?? true;
    unbind(index, holder);
    if (holderCopy) showSent(holderCopy);
    core.touchEntry(session, holder);
  } else {
    showSent(copy);
  }
  bind(index, entry, messageId);
  core.touchEntry(session, entry);
  // A message none of our copies (its echo found no copy left) is free now for the misplaced echo.
  if (misplaced?.echoed) rehome(core, session, misplaced, holder && !holderCopy ? holder : undefined);
  settle(index, copy);
  // The first prompt may name the session: its words may have changed.
  core.touch(session);
}

/** The agent refused the prompt: no echo comes for it, and an echo taken for it finds its own copy. */
export function forgetPrompt(core: StoreCore, session: SessionRecord, promptKey: string): void {
  const index = core.indexOf(session);
  const at = index.promptCopies.findIndex((c) => c.promptKey === promptKey);
  const copy = index.promptCopies[at];
  if (!copy) return;
  index.promptCopies.splice(at, 1);
  const messageId = copy.entry.messageId;
  if (messageId === undefined) return;
  const echo = copy.echoed ? { messageId, text: copy.entry.text, attachments: copy.entry.attachments } : undefined;
  unbind(index, copy.entry);
  showSent(copy);
  core.touchEntry(session, copy.entry);
  if (echo) rehome(core, session, echo);
}

/** An echo shown on the wrong copy moves to `free`, else to the oldest copy without an id, else to a message of its own. */
function rehome(core: StoreCore, session: SessionRecord, echo: { readonly messageId: string; readonly text: string; readonly attachments: ContentBlock[] }, free?: MessageEntry): void {
  const index = core.indexOf(session);
  const copy = free ? undefined : oldestUnbound(index);
  let home = free ?? copy?.entry;
  if (!home) {
    home = { kind: 'message', id: core.nextEntryId('msg'), rev: core.rev, at: core.at, role: 'user', text: '', attachments: [] };
    core.addEntry(session, home);
  }
  bind(index, home, echo.messageId);
  home.text = echo.text;
  home.attachments = echo.attachments;
  core.touchEntry(session, home);
  if (copy) {
    copy.echoed = true;
    settle(index, copy);
  }
}

function oldestUnbound(index: SessionIndex): PromptCopy | undefined {
  return index.promptCopies.find((c) => c.entry.messageId === undefined);
}

function bind(index: SessionIndex, entry: MessageEntry, messageId: string): void {
  (entry as { messageId?: string }).messageId = messageId;
  index.messages.set(`user\0${messageId}`, entry);
}

function unbind(index: SessionIndex, entry: MessageEntry): void {
  if (entry.messageId === undefined) return;
  if (index.messages.get(`user\0${entry.messageId}`) === entry) index.messages.delete(`user\0${entry.messageId}`);
  delete (entry as { messageId?: string }).messageId;
}

function showSent(copy: PromptCopy): void {
  copy.entry.text = copy.sent.text;
  copy.entry.attachments = [...copy.sent.attachments];
  copy.echoed = false;
}

/** Acknowledged and echoed: nothing more can change the copy. */
function settle(index: SessionIndex, copy: PromptCopy): void {
  if (!copy.acknowledged || !copy.echoed) return;
  const at = index.promptCopies.indexOf(copy);
  if (at >= 0) index.promptCopies.splice(at, 1);
}
