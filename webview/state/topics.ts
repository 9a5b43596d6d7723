// Topics the chat's state changes on, and the bus components watch them through (StoreWatch): a session id,
// or one of the *_TOPIC names. The mirror and the view model emit on the same bus.

/** The session tree changed (a session joined, left, or changed its header). */
export const TREE_TOPIC = '@tree';
export const TERMINALS_TOPIC = '@terminals';
export const ROOT_TOPIC = '@root';
/** UI state (expanded cards, drafts) changed. */
export const UI_TOPIC = '@ui';
/** The host answered the prompt box (file suggestions) or added an attachment to it. */
export const COMPOSER_TOPIC = '@composer';
/** The host answered a request the user made (a refusal shown where they asked). */
export const OUTCOME_TOPIC = '@outcome';

type Listener = () => void;

export class TopicBus {
  private readonly listeners = new Map<string, Set<Listener>>();

  /** Calls `listener` after changes to `topic`; returns the way to stop. */
  watch(topic: string, listener: Listener): () => void {
    let set = this.listeners.get(topic);
    if (!set) this.listeners.set(topic, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  emit(topics: readonly string[]): void {
    for (const topic of topics) {
      for (const listener of [...(this.listeners.get(topic) ?? [])]) listener();
    }
  }

  /** Everything changed (a snapshot). */
  emitAll(): void {
    this.emit([...this.listeners.keys()]);
  }
}
