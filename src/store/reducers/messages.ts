// Message text: agent, user and thought chunks (grouped by messageId, or by role when there is none) and the
// prompts the client sends.
import type { ContentBlock, MessageEntry, SessionRecord } from '../model';
import type { StoreParts } from '../storeParts';
import { isDiscreteMessage } from '../subagentDialects';
import { appendText } from '../textRope';
import { asString, isObject, type JsonObject } from '../wireMessage';

export function appendChunk({ core }: StoreParts, session: SessionRecord, role: MessageEntry['role'], update: JsonObject): void {
  const block = isObject(update['content']) ? (update['content'] as ContentBlock) : undefined;
  const text = block?.type === 'text' && typeof block.text === 'string' ? block.text : '';
  const attachment = block && block.type !== 'text' ? block : undefined;
  const messageId = asString(update['messageId']);
  const index = core.indexOf(session);
  let entry: MessageEntry | undefined;
  if (messageId) entry = index.messages.get(`${role}\0${messageId}`);
  else if (index.last?.kind === 'message' && index.last.role === role && !isDiscreteMessage(update) && !index.lastDiscrete) entry = index.last;
  if (!entry) {
    if (text === '' && !attachment) return;
    entry = { kind: 'message', id: core.nextEntryId('msg'), rev: core.rev, at: core.at, role, text: '', attachments: [], ...(messageId ? { messageId } : {}) };
    if (messageId) index.messages.set(`${role}\0${messageId}`, entry);
    core.addEntry(session, entry);
    index.lastDiscrete = isDiscreteMessage(update);
  }
  entry.text = appendText(entry.text, text);
  if (attachment) entry.attachments.push(attachment);
  core.touchEntry(session, entry, attachment ? undefined : text);
  if (role === 'user') noteUserMessage(core, session, entry);
}

export function addUserPrompt({ core }: StoreParts, session: SessionRecord, blocks: unknown[]): void {
  const entry: MessageEntry = { kind: 'message', id: core.nextEntryId('msg'), rev: core.rev, at: core.at, role: 'user', text: '', attachments: [] };
  for (const block of blocks) {
    if (!isObject(block)) continue;
    if (block['type'] === 'text' && typeof block['text'] === 'string') entry.text = appendText(entry.text, block['text']);
    else entry.attachments.push(block as ContentBlock);
  }
  core.addEntry(session, entry);
  noteUserMessage(core, session, entry);
}

/** The first prompt names a root until the agent titles it. */
function noteUserMessage(core: StoreParts['core'], session: SessionRecord, entry: MessageEntry): void {
  const index = core.indexOf(session);
  if (index.firstUserMessage && index.firstUserMessage !== entry) return;
  if (entry.text.trim() === '') return;
  index.firstUserMessage = entry;
  if (session.title === null) core.touch(session);
}
