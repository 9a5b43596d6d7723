// Message text: agent, user and thought chunks (grouped by messageId, or by role when there is none) and the
// prompts the client sends (v2 echoes of them: promptEchoes.ts; what an echo may change: agentAccounts.ts).
import type { ContentBlock, MessageEntry, SessionRecord } from '../model';
import type { ReducerContext } from '../reducerContext';
import { isDiscreteMessage } from '../subagentDialects';
import { appendText } from '../textRope';
import { asString, isObject, type JsonObject } from '../wireMessage';
import { extendAccount, keepAsSent, keepsUserWords, noteAgentUserMessage, replaceAccount } from './agentAccounts';
import { awaitEcho, heldEcho, isHeld } from './promptEchoes';
import { fillFromBlocks, markResent, newUserMessage } from './messageBlocks';
import { markRelay } from './relays';
import { claimSteerEcho, noteAgentWords, takePromptedSteer } from './steering';

export function appendChunk(parts: ReducerContext, session: SessionRecord, role: MessageEntry['role'], update: JsonObject): void {
  const { core } = parts;
  const block = isObject(update['content']) ? (update['content'] as ContentBlock) : undefined;
  const text = block?.type === 'text' && typeof block.text === 'string' ? block.text : '';
  const attachment = block && block.type !== 'text' ? block : undefined;
  const messageId = asString(update['messageId']);
  const index = core.indexOf(session);
  if (role === 'agent') noteAgentWords(parts, session);
  let entry: MessageEntry | undefined;
  if (messageId) entry = index.messages.get(`${role}\0${messageId}`) ?? (role === 'user' ? (claimSteerEcho(parts, session, messageId, text) ?? heldEcho(core, index, messageId)) : undefined);
  else if (index.last?.kind === 'message' && index.last.role === role && !isDiscreteMessage(update) && !index.lastDiscrete) entry = index.last;
  // The user's own words stay as sent: the agent's echo of them is its account, kept beside them.
  if (entry && keepsUserWords(core, entry)) {
    extendAccount(core, session, entry, text);
    return;
  }
  if (!entry) {
    if (text === '' && !attachment) return;
    entry = { kind: 'message', id: core.nextEntryId('msg'), rev: core.rev, at: core.at, role, text: '', attachments: [], ...(messageId ? { messageId } : {}) };
    if (messageId) index.messages.set(`${role}\0${messageId}`, entry);
    if (role === 'user') noteAgentUserMessage(parts, session, entry);
    core.addEntry(session, entry);
    index.lastDiscrete = isDiscreteMessage(update);
  }
  entry.text = appendText(entry.text, text);
  core.noteText(text.length);
  parts.spill?.noteGrowth(entry);
  if (attachment) entry.attachments.push(attachment);
  // Held until the acknowledgement says which prompt of ours it is (promptEchoes).
  if (role === 'user' && isHeld(index, entry)) return;
  core.touchEntry(session, entry, attachment ? undefined : text);
  if (role === 'user') noteUserMessage(core, session, entry);
}

/**
 * A v2 whole-message upsert (`user_message`, `agent_message`, `agent_thought`) keyed by messageId: omitted
 * content keeps the message, `null` clears it, an array replaces it.
 */
export function upsertMessage(parts: ReducerContext, session: SessionRecord, role: MessageEntry['role'], update: JsonObject): void {
  const { core } = parts;
  const messageId = asString(update['messageId']);
  if (!messageId) {
    core.diagnose('invalid-message', `${String(update['sessionUpdate'])} without a messageId`);
    return;
  }
  const index = core.indexOf(session);
  let entry = index.messages.get(`${role}\0${messageId}`) ?? (role === 'user' ? heldEcho(core, index, messageId) : undefined);
  if (!('content' in update)) return;
  const blocks = Array.isArray(update['content']) ? update['content'] : [];
  // The user's own words stay as sent: the agent's echo of them is its account, kept beside them.
  if (entry && keepsUserWords(core, entry)) {
    replaceAccount(core, session, entry, blocks);
    return;
  }
  if (!entry) {
    if (blocks.length === 0) return;
    entry = { kind: 'message', id: core.nextEntryId('msg'), rev: core.rev, at: core.at, role, text: '', attachments: [], messageId };
    index.messages.set(`${role}\0${messageId}`, entry);
    if (role === 'user') noteAgentUserMessage(parts, session, entry);
    core.addEntry(session, entry);
    index.lastDiscrete = true;
  }
  parts.spill?.forget(entry);
  entry.text = '';
  entry.attachments = [];
  fillFromBlocks(entry, blocks);
  core.noteText(entry.text.length);
  parts.spill?.noteGrowth(entry);
  if (role === 'user' && isHeld(index, entry)) return;
  core.touchEntry(session, entry);
  if (role === 'user') noteUserMessage(core, session, entry);
}

/**
 * A user message: `fromClient` for a session/prompt the client sent (only those can be relays, which the
 * client labels), `promptKey` for a v2 prompt (its session/prompt request), which the agent acknowledges and echoes.
 */
export function addUserPrompt(parts: ReducerContext, session: SessionRecord, blocks: unknown[], fromClient = false, promptKey?: string): void {
  const { core } = parts;
  const entry = newUserMessage(core, blocks);
  // The words of a steer the agent sent back (`promptRequired`) show once, on the steer's entry.
  const steered = takePromptedSteer(parts, session, entry.text);
  if (steered) {
    if (promptKey !== undefined) awaitEcho(core.indexOf(session), steered, promptKey);
    return;
  }
  if (fromClient) {
    markResent(entry, blocks);
    keepAsSent(core, entry);
    markRelay(parts, session, entry);
  }
  core.addEntry(session, entry);
  if (promptKey !== undefined) awaitEcho(core.indexOf(session), entry, promptKey);
  noteUserMessage(core, session, entry);
}

/** The first prompt names a root until the agent titles it; a message the agent added never does. */
function noteUserMessage(core: ReducerContext['core'], session: SessionRecord, entry: MessageEntry): void {
  const index = core.indexOf(session);
  if (index.firstUserMessage && index.firstUserMessage !== entry) return;
  if (entry.text.trim() === '' || entry.addedByAgent) return;
  index.firstUserMessage = entry;
  if (session.title === null) core.touch(session);
}
