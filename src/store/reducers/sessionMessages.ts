// `session_message` (an upsert of a message between sessions) and `session_message_chunk` (appends a block).
import type { ContentBlock, SessionRecord } from '../model';
import type { ReducerContext } from '../reducerContext';
import { appendText } from '../textRope';
import { asString, isObject, type JsonObject } from '../wireMessage';

const LINK_FIELDS = ['senderSessionId', 'recipientSessionId', 'senderMessageId', 'recipientMessageId'] as const;

export function applySessionMessage({ core }: ReducerContext, session: SessionRecord, update: JsonObject, isChunk: boolean): void {
  const messageId = asString(update['messageId']);
  if (!messageId) {
    core.diagnose('invalid-message', `${String(update['sessionUpdate'])} without a messageId`);
    return;
  }
  const index = core.indexOf(session);
  let entry = index.sessionMessages.get(messageId);
  if (!entry) {
    entry = { kind: 'sessionMessage', id: `smsg:${messageId}`, rev: core.rev, at: core.at, messageId, direction: 'unknown', text: '', attachments: [] };
    index.sessionMessages.set(messageId, entry);
    core.addEntry(session, entry);
  }
  let appended: string | undefined;
  if (isChunk) {
    const block = isObject(update['content']) ? (update['content'] as ContentBlock) : undefined;
    if (block?.type === 'text' && typeof block.text === 'string') {
      entry.text = appendText(entry.text, block.text);
      core.noteText(block.text.length);
      appended = block.text;
    } else if (block) entry.attachments.push(block);
  } else {
    for (const field of LINK_FIELDS) {
      if (!(field in update)) continue;
      const value = asString(update[field]);
      if (value) entry[field] = value;
      else delete entry[field];
    }
    if ('content' in update) {
      const blocks = Array.isArray(update['content']) ? update['content'].filter(isObject) : [];
      entry.text = blocks.map((b) => (b['type'] === 'text' && typeof b['text'] === 'string' ? b['text'] : '')).join('');
      entry.attachments = blocks.filter((b) => b['type'] !== 'text') as ContentBlock[];
    }
    entry.direction = entry.senderSessionId === session.id ? 'outgoing' : entry.recipientSessionId === session.id ? 'incoming' : 'unknown';
  }
  core.touchEntry(session, entry, appended);
}
