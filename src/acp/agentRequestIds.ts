// Ids of the agent's requests the client has not answered yet. A request that reuses one of them is a
// protocol error: it gets a JSON-RPC error of its own and the first request is served on.
import { ErrorCodes, type Message } from 'vscode-jsonrpc/node';

type Id = string | number;

export class PendingAgentRequestIds {
  private readonly pending = new Set<Id>();
  /** Our own error answers to duplicates: writing them does not end the first request. */
  private readonly duplicateAnswers = new WeakSet<object>();

  /** For each received message: true when it is a duplicate request, answered through `reply`. */
  refuseDuplicate(message: Message, reply: (answer: object) => void): boolean {
    const { id, method } = message as { id?: unknown; method?: unknown };
    if (typeof method !== 'string' || (typeof id !== 'string' && typeof id !== 'number')) return false;
    if (!this.pending.has(id)) {
      this.pending.add(id);
      return false;
    }
    const answer = { jsonrpc: '2.0', id, error: { code: ErrorCodes.InvalidRequest, message: `Request id ${JSON.stringify(id)} is already pending (${method}); request ids must be unique` } };
    this.duplicateAnswers.add(answer);
    reply(answer);
    return true;
  }

  /** For each sent message: a response ends its request. */
  answered(message: object): void {
    const { id, method } = message as { id?: unknown; method?: unknown };
    if (method !== undefined || this.duplicateAnswers.has(message)) return;
    if (typeof id === 'string' || typeof id === 'number') this.pending.delete(id);
  }
}
