// Re-renders a component when the store topics it shows change (a session id, the tree, terminals).
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ChatStore } from './chatStore';

export class StoreWatch implements ReactiveController {
  private unwatch: (() => void)[] = [];
  private watched = '';

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly topics: () => { store: ChatStore | undefined; topics: readonly string[] },
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.resubscribe();
  }

  hostUpdate(): void {
    this.resubscribe();
  }

  hostDisconnected(): void {
    this.clear();
    this.watched = '';
  }

  private resubscribe(): void {
    const { store, topics } = this.topics();
    const key = store ? topics.join('\n') : '';
    if (key === this.watched && this.unwatch.length > 0) return;
    this.clear();
    this.watched = key;
    if (!store) return;
    const update = (): void => this.host.requestUpdate();
    this.unwatch = topics.map((topic) => store.watch(topic, update));
  }

  private clear(): void {
    for (const unwatch of this.unwatch) unwatch();
    this.unwatch = [];
  }
}
