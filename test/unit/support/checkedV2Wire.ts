// A v2 store fed by hand-written messages, each kept so that `assertSchemaValid` can check them all against the
// SDK's v2 schemas: a test of v2 reading never rests on a message a v2 agent could not send.
import assert from 'node:assert/strict';
import type { Direction } from '../../../src/store/model';
import { SessionStore } from '../../../src/store/sessionStore';
import { checkV2Messages } from './acpSchemaV2';

type Json = Record<string, unknown>;

export class CheckedV2Wire {
  readonly store = new SessionStore({ now: () => 1000 });
  private readonly sent: { message: Json; direction: Direction }[] = [];
  private nextId = 1;

  /** Initialized at v2, with one root session `sessionId`. */
  constructor(readonly sessionId = 'root') {
    this.ingest({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 2, info: { name: 't', version: '1' }, capabilities: {} } }, 'client->agent');
    this.ingest({ jsonrpc: '2.0', id: 0, result: { protocolVersion: 2, info: { name: 'a', version: '1' }, capabilities: { session: {} } } }, 'agent->client');
    const id = this.nextId++;
    this.ingest({ jsonrpc: '2.0', id, method: 'session/new', params: { cwd: '/work' } }, 'client->agent');
    this.ingest({ jsonrpc: '2.0', id, result: { sessionId } }, 'agent->client');
  }

  ingest(message: Json, direction: Direction): this {
    this.sent.push({ message, direction });
    this.store.ingest(message, direction);
    return this;
  }

  update(update: Json): this {
    return this.ingest({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: this.sessionId, update } }, 'agent->client');
  }

  /** Sends a text prompt; returns its request id (what its acknowledgement answers). */
  prompt(text: string): number {
    const id = this.nextId++;
    this.ingest({ jsonrpc: '2.0', id, method: 'session/prompt', params: { sessionId: this.sessionId, prompt: [{ type: 'text', text }] } }, 'client->agent');
    return id;
  }

  /** The agent inserted prompt `id` as message `messageId`. */
  ack(id: number, messageId: string): this {
    return this.ingest({ jsonrpc: '2.0', id, result: { messageId } }, 'agent->client');
  }

  /** The agent refused prompt `id`. */
  refuse(id: number, message: string): this {
    return this.ingest({ jsonrpc: '2.0', id, error: { code: -32603, message } }, 'agent->client');
  }

  get session() {
    const session = this.store.getSession(this.sessionId);
    assert.ok(session, `no session ${this.sessionId}`);
    return session;
  }

  codes(): string[] {
    return this.store.diagnostics.map((d) => d.code);
  }

  assertSchemaValid(): void {
    const { failures } = checkV2Messages(this.sent);
    assert.deepEqual(failures, []);
  }
}
