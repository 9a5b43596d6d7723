// Agent->client requests that wait for the user (permission, elicitation), kept per session so that a
// cancel can answer them on the user's behalf and dismiss their UI.

export interface PendingHostRequest {
  readonly sessionId: string | undefined;
  readonly kind: string;
  readonly startedAt: number;
}

interface Entry extends PendingHostRequest {
  readonly controller: AbortController;
  /** Ends the request with its "cancelled" answer. */
  readonly cancel: () => void;
  /** Ends the request because the agent withdrew it or went away. */
  readonly abandon: (error: Error) => void;
}

export class PendingHostRequests {
  private readonly entries = new Set<Entry>();

  /**
   * Runs `ask` (the host's UI) and returns its answer, unless the session is cancelled first — then
   * `cancelledAnswer` — or `withdrawn` fires — then the returned promise rejects with its error.
   */
  track<T>(
    sessionId: string | undefined,
    kind: string,
    ask: (signal: AbortSignal) => Promise<T>,
    cancelledAnswer: T,
    withdrawn?: (abandon: (error: Error) => void) => void,
  ): Promise<T> {
    const controller = new AbortController();
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const finish = (settle: () => void) => {
        if (settled) return;
        settled = true;
        this.entries.delete(entry);
        settle();
      };
      const entry: Entry = {
        sessionId,
        kind,
        startedAt: Date.now(),
        controller,
        cancel: () => {
          controller.abort();
          finish(() => resolve(cancelledAnswer));
        },
        abandon: (error) => {
          controller.abort();
          finish(() => reject(error));
        },
      };
      this.entries.add(entry);
      withdrawn?.(entry.abandon);
      let answer: Promise<T>;
      try {
        answer = Promise.resolve(ask(controller.signal));
      } catch (error) {
        answer = Promise.reject(error);
      }
      answer.then(
        (value) => finish(() => resolve(value)),
        (error) => finish(() => reject(error)),
      );
    });
  }

  /** Answers every pending request of these sessions with its cancelled answer. Returns how many. */
  cancelSessions(sessionIds: Iterable<string>): number {
    const ids = new Set(sessionIds);
    let count = 0;
    for (const entry of [...this.entries]) {
      if (entry.sessionId !== undefined && ids.has(entry.sessionId)) {
        entry.cancel();
        count++;
      }
    }
    return count;
  }

  /** The agent is gone: nothing can be answered any more; stop every UI. */
  abandonAll(error: Error): void {
    for (const entry of [...this.entries]) entry.abandon(error);
  }

  list(): PendingHostRequest[] {
    return [...this.entries].map(({ sessionId, kind, startedAt }) => ({ sessionId, kind, startedAt }));
  }
}
