// How a connection's history says it lost its oldest part (subchats.history.maxMegabytes), in the tree and the chat.
import { t } from './l10n';
/** "history cut: oldest 1.5 MB dropped", or undefined when nothing was. */
export function historyCut(droppedBytes: number): string | undefined {
  if (droppedBytes <= 0) return undefined;
  const mb = droppedBytes / 1_048_576;
  return mb >= 0.1 ? t('history cut: oldest {0} MB dropped', mb.toFixed(1)) : t('history cut: oldest {0} KB dropped', Math.ceil(droppedBytes / 1024));
}
