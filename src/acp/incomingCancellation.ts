// Tokens for the agent's requests to the client: `$/cancel_request` from the agent fires the one with that
// JSON-RPC id, and a handler can ask which id its token belongs to (the store names permissions by it).
import { CancellationTokenSource, type CancellationToken, type RequestMessage } from 'vscode-jsonrpc/node';

type RequestId = string | number;

export class IncomingCancellation {
  private readonly sources = new Map<RequestId, CancellationTokenSource>();
  private readonly requestIds = new WeakMap<CancellationToken, RequestId>();

  /** vscode-jsonrpc's receiver strategy: one token source per received request. */
  sourceFor(request: RequestMessage): CancellationTokenSource {
    const source = new CancellationTokenSource();
    if (request.id !== null) {
      this.sources.set(request.id, source);
      this.requestIds.set(source.token, request.id);
    }
    return source;
  }

  requestIdOf(token: CancellationToken): RequestId | undefined {
    return this.requestIds.get(token);
  }

  /** The agent withdrew the request with this id (ignored when it is not pending). */
  cancel(requestId: unknown): void {
    if (typeof requestId === 'string' || typeof requestId === 'number') this.sources.get(requestId)?.cancel();
  }

  /** The request was answered: its id may come again. */
  forget(token: CancellationToken): void {
    const requestId = this.requestIds.get(token);
    if (requestId !== undefined) this.sources.delete(requestId);
  }
}
