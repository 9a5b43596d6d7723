// Who may answer an agent's pending permission request, by connection and JSON-RPC id: the chat, a
// notification or the API. No vscode import, so the timing rule below is unit-tested.
//
// The store shows a request as soon as its line is read, while vscode-jsonrpc hands requests to their
// handler one per event-loop turn: when an agent sends several messages at once, a permission can show (and
// be clicked) a few turns before its handler registers here. An answer to a request the store already shows
// pending is kept and given at registration, instead of being refused as "no longer pending".

export type PermissionAnswer = (optionId: string | null) => void;

/** How many early answers are kept at most (each waits only until its handler registers). */
export const MAX_EARLY_ANSWERS = 64;
/** How many registered requests are remembered, so a late second click is refused rather than kept. */
const REMEMBERED_REQUESTS = 1024;

export class PermissionBroker {
  private readonly pending = new Map<string, PermissionAnswer>();
  private readonly early = new Map<string, string | null>();
  private readonly registered = new Set<string>();

  /** `shownPending`: whether the store shows this request as a pending permission (read, not yet answered). */
  constructor(private readonly shownPending: (connectionId: string, requestId: string) => boolean) {}

  /** Registers the handler's answer; an answer given early is delivered at once. Dispose when the request ends. */
  register(connectionId: string, requestId: string, answer: PermissionAnswer): { dispose(): void } {
    const key = keyOf(connectionId, requestId);
    remember(this.registered, key, REMEMBERED_REQUESTS);
    const registration = { dispose: () => this.pending.get(key) === answer && this.pending.delete(key) };
    if (this.early.has(key)) {
      const optionId = this.early.get(key) ?? null;
      this.early.delete(key);
      answer(optionId);
      return registration;
    }
    this.pending.set(key, answer);
    return registration;
  }

  /** Answers from the chat or the API; false when the request is no longer (or never was) pending. */
  answer(connectionId: string, requestId: string, optionId: string | null): boolean {
    const key = keyOf(connectionId, requestId);
    const answer = this.pending.get(key);
    if (answer) {
      answer(optionId);
      return true;
    }
    if (this.early.has(key) || this.registered.has(key) || !this.shownPending(connectionId, requestId)) return false;
    if (this.early.size >= MAX_EARLY_ANSWERS) this.early.delete(this.early.keys().next().value as string);
    this.early.set(key, optionId);
    return true;
  }
}

function keyOf(connectionId: string, requestId: string): string {
  return `${connectionId}\0${requestId}`;
}

/** Adds `key` to an insertion-ordered set of at most `limit` keys, forgetting the oldest. */
function remember(keys: Set<string>, key: string, limit: number): void {
  keys.delete(key);
  keys.add(key);
  if (keys.size > limit) keys.delete(keys.values().next().value as string);
}
