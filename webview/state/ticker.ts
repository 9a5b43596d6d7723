// One shared 1-second clock for elapsed-time labels, running only while something listens.
import type { ReactiveController, ReactiveControllerHost } from 'lit';

const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  timer ??= setInterval(() => listeners.forEach((l) => l()), 1000);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** Re-renders its host every second while `active()` is true. */
export class SecondTicker implements ReactiveController {
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly active: () => boolean,
  ) {
    host.addController(this);
  }

  hostUpdated(): void {
    const active = this.active();
    if (active && !this.unsubscribe) this.unsubscribe = subscribe(() => this.host.requestUpdate());
    else if (!active) this.stop();
  }

  hostDisconnected(): void {
    this.stop();
  }

  private stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }
}
