// Message entries from content blocks: text blocks joined, anything else kept as an attachment. One place for
// prompts, steers and the v2 whole-message updates, so a steer's words are read like a prompt's.
import type { ContentBlock, MessageEntry } from '../model';
import type { RecordKeeper } from '../recordKeeper';
import { readResendMark } from '../../protocol/resendMark';
import { appendText } from '../textRope';
import { isObject } from '../wireMessage';

export function fillFromBlocks(entry: Pick<MessageEntry, 'text' | 'attachments'>, blocks: unknown[]): void {
  for (const block of blocks) {
    if (!isObject(block)) continue;
    if (block['type'] === 'text' && typeof block['text'] === 'string') entry.text = appendText(entry.text, block['text']);
    else entry.attachments.push(block as ContentBlock);
  }
}

/** A user message the client sent (a prompt or a steer), not yet added to its session. */
export function newUserMessage(core: RecordKeeper, blocks: unknown[]): MessageEntry {
  const entry: MessageEntry = { kind: 'message', id: core.nextEntryId('msg'), rev: core.rev, at: core.at, role: 'user', text: '', attachments: [] };
  fillFromBlocks(entry, blocks);
  core.noteText(entry.text.length);
  return entry;
}

/** A message the client sent again says which earlier one it repeats (only the client's own sends carry it). */
export function markResent(entry: MessageEntry, blocks: readonly unknown[]): void {
  const resend = readResendMark(blocks);
  if (resend) entry.resend = resend;
}
