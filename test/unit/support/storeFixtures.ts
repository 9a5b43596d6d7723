// Helpers for store tests: replay fixtures and build wire messages tersely.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionRecord } from '../../../src/store/model';
import { SessionStore, type SessionStoreOptions } from '../../../src/store/sessionStore';
import { replayText, toReplaySnapshot, type ReplaySnapshot } from '../../../src/store/replayReport';

export const FIXTURES = join(__dirname, '..', '..', 'fixtures');

export type FixtureFolder = 'traces' | 'dialects' | 'written' | 'recorded-new';

export function fixtureText(folder: FixtureFolder, name: string): string {
  return readFileSync(join(FIXTURES, folder, name), 'utf8');
}

export function fixtureNames(folder: FixtureFolder): string[] {
  return readdirSync(join(FIXTURES, folder)).filter((f) => f.endsWith('.jsonl')).sort();
}

/** Replays a fixture line by line, calling `each` after every line (to check what views would show mid-stream). */
export function replayStepwise(folder: FixtureFolder, name: string, each?: (store: SessionStore, line: number, text: string) => void): SessionStore {
  const store = new SessionStore({ now: () => 0 });
  fixtureText(folder, name)
    .split('\n')
    .forEach((text, i) => {
      store.ingestLine(text, i + 1);
      each?.(store, i + 1, text);
    });
  return store;
}

/** Replays a fixture until `done` says the moment a test wants has come (the lines after it are not read). */
export function replayUntil(folder: FixtureFolder, name: string, done: (store: SessionStore) => boolean): SessionStore {
  const store = new SessionStore({ now: () => 0 });
  const lines = fixtureText(folder, name).split('\n');
  for (let i = 0; i < lines.length; i++) {
    store.ingestLine(lines[i]!, i + 1);
    if (done(store)) return store;
  }
  throw new Error(`${name}: the awaited moment never came`);
}

/** The store after a fixture's first `count` lines (the moment a test looks at). */
export function replayFirst(folder: FixtureFolder, name: string, count: number): SessionStore {
  const store = new SessionStore({ now: () => 0 });
  fixtureText(folder, name)
    .split('\n')
    .slice(0, count)
    .forEach((text, i) => store.ingestLine(text, i + 1));
  return store;
}

export function replayFixture(folder: FixtureFolder, name: string): { store: SessionStore; snapshot: ReplaySnapshot } {
  const store = new SessionStore({ now: () => 0 });
  replayText(store, fixtureText(folder, name));
  return { store, snapshot: toReplaySnapshot(store) };
}

/** A store fed message by message, for hand-written cases. */
export class Wire {
  readonly store: SessionStore;
  protected nextId = 100;

  /** A store on a fixed clock unless `options` give it another. */
  constructor(options: SessionStoreOptions = { now: () => 1000 }) {
    this.store = new SessionStore(options);
  }

  update(sessionId: string, update: Record<string, unknown>, paramsMeta?: Record<string, unknown>): this {
    this.store.ingest(
      { jsonrpc: '2.0', method: 'session/update', params: { sessionId, update, ...(paramsMeta ? { _meta: paramsMeta } : {}) } },
      'agent->client',
    );
    return this;
  }

  /** initialize, answered with `result` (agentCapabilities, a top-level `_meta` such as steering). */
  initialize(result: Record<string, unknown> = {}): this {
    return this.clientRequest('initialize', { protocolVersion: 1, clientCapabilities: {} }, { protocolVersion: 1, agentCapabilities: {}, ...result });
  }

  /** session/new answered with the id and any `extra` result fields (modes, configOptions). */
  newSession(sessionId: string, cwd = '/work', extra: Record<string, unknown> = {}): this {
    return this.clientRequest('session/new', { cwd, mcpServers: [] }, { sessionId, ...extra });
  }

  /** A client request the agent answers at once. */
  clientRequest(method: string, params: Record<string, unknown>, result: unknown): this {
    const id = this.nextId++;
    this.store.ingest({ jsonrpc: '2.0', id, method, params }, 'client->agent');
    this.store.ingest({ jsonrpc: '2.0', id, result }, 'agent->client');
    return this;
  }

  /** The client's session/cancel notification (the agent has not acted on it yet). */
  cancel(sessionId: string): this {
    this.store.ingest({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId } }, 'client->agent');
    return this;
  }

  /** Sends session/prompt and returns a function that ends the turn with a stop reason. */
  prompt(sessionId: string, text: string): (stopReason: string) => void {
    const id = this.nextId++;
    this.store.ingest({ jsonrpc: '2.0', id, method: 'session/prompt', params: { sessionId, prompt: [{ type: 'text', text }] } }, 'client->agent');
    return (stopReason) => this.store.ingest({ jsonrpc: '2.0', id, result: { stopReason } }, 'agent->client');
  }

  agentRequest(method: string, params: Record<string, unknown>): number {
    const id = this.nextId++;
    this.store.ingest({ jsonrpc: '2.0', id, method, params }, 'agent->client');
    return id;
  }

  clientResult(id: number, result: unknown): this {
    this.store.ingest({ jsonrpc: '2.0', id, result }, 'client->agent');
    return this;
  }

  session(id: string) {
    const session = this.store.getSession(id);
    if (!session) throw new Error(`no session ${id}`);
    return session;
  }

  /** The record behind a session, for tests that set up a state no transcript reaches directly. */
  record(id: string): SessionRecord {
    return this.session(id) as SessionRecord;
  }

  codes(): string[] {
    return this.store.diagnostics.map((d) => d.code);
  }
}

export function announce(childId: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { sessionUpdate: 'subagent_update', sessionId: childId, ...fields };
}

export function text(kind: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk', value: string, extra: Record<string, unknown> = {}) {
  return { sessionUpdate: kind, content: { type: 'text', text: value }, ...extra };
}
