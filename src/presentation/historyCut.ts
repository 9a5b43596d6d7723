// How a connection's history says it lost its oldest part (subchats.history.maxMegabytes), in the tree and the chat.
import { t } from './l10n';
import { sizeSentence } from './byteSize';

/** "history cut: oldest 1.5 MB dropped", or undefined when nothing was. */
export function historyCut(droppedBytes: number): string | undefined {
  if (droppedBytes <= 0) return undefined;
  return sizeSentence(
    droppedBytes,
    (mb) => t('history cut: oldest {0} MB dropped', mb),
    (kb) => t('history cut: oldest {0} KB dropped', kb),
  );
}
