// What the chat's components read: the mirror of the host (ChatMirror) and the UI-only state (ChatViewModel),
// on one topic bus, so a component watches both the same way (StoreWatch).
import { ChatMirror } from './mirror';
import { TopicBus } from './topics';
import { ChatViewModel } from './viewModel';

export class ChatStore {
  private readonly bus = new TopicBus();
  readonly mirror = new ChatMirror(this.bus);
  readonly ui = new ChatViewModel(this.bus);

  /** Calls `listener` after changes to `topic` (a session id or one of the *_TOPIC constants). */
  watch(topic: string, listener: () => void): () => void {
    return this.bus.watch(topic, listener);
  }
}
