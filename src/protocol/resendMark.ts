// A message the user sends again (Retry, or Edit and send again) says so on the wire, in the `_meta` of its first
// text block: ACP has no rewind, so the resend is a new turn, and the mark is how the store, the transcript file
// and a replay know it is one. Written by the host, read back by the store; agents ignore `_meta` they don't know.
import type { ContentBlock, ResendNote } from './transcript';

const RESEND_META_KEY = 'subchats/resend';

/** The blocks with the mark on their first text block (one is added in front when there is none). */
export function markResend<B extends ContentBlock>(blocks: readonly B[], note: ResendNote): (B | ContentBlock)[] {
  const index = blocks.findIndex((block) => block.type === 'text');
  const mark = { [RESEND_META_KEY]: { how: note.how, of: note.of } };
  if (index < 0) return [{ type: 'text', text: '', _meta: mark }, ...blocks];
  const first = blocks[index]!;
  const meta = typeof first['_meta'] === 'object' && first['_meta'] !== null ? (first['_meta'] as Record<string, unknown>) : {};
  return blocks.map((block, i) => (i === index ? { ...block, _meta: { ...meta, ...mark } } : block));
}

/** The mark of a sent message's blocks, or undefined when there is none or it is malformed (never fatal). */
export function readResendMark(blocks: readonly unknown[]): ResendNote | undefined {
  const first = blocks.find((block): block is Record<string, unknown> => typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text');
  const meta = first?.['_meta'];
  if (typeof meta !== 'object' || meta === null) return undefined;
  const mark = (meta as Record<string, unknown>)[RESEND_META_KEY];
  if (typeof mark !== 'object' || mark === null) return undefined;
  const { how, of } = mark as { how?: unknown; of?: unknown };
  if ((how !== 'retry' && how !== 'edit') || typeof of !== 'object' || of === null) return undefined;
  const { at, entryId } = of as { at?: unknown; entryId?: unknown };
  if (typeof at !== 'number' || !Number.isFinite(at)) return undefined;
  return { how, of: typeof entryId === 'string' ? { at, entryId } : { at } };
}
