// What a message says about the head of its text the host keeps on disk (the store's textSpill.ts).
import type { EarlierText } from '../protocol/transcript';
import { t } from './l10n';
import { sizeSentence } from './byteSize';

/** "1.5 MB earlier in this message is kept on disk". */
export function earlierTextNote(earlier: EarlierText): string {
  return sizeSentence(
    earlier.bytes,
    (mb) => t('{0} MB earlier in this message is kept on disk', mb),
    (kb) => t('{0} KB earlier in this message is kept on disk', kb),
  );
}
