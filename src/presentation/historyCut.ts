// How a connection's history says it lost its oldest part (subchats.history.maxMegabytes), in the tree and the chat.
/** "history cut: oldest 1.5 MB dropped", or undefined when nothing was. */
export function historyCut(droppedBytes: number): string | undefined {
  if (droppedBytes <= 0) return undefined;
  const mb = droppedBytes / 1_048_576;
  return `history cut: oldest ${mb >= 0.1 ? `${mb.toFixed(1)} MB` : `${Math.ceil(droppedBytes / 1024)} KB`} dropped`;
}
