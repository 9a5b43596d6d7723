// A real SessionStore fed the wire messages an agent and client exchange, with short helpers for the
// component tests' scenes: the client opens and prompts sessions, the agent streams messages, tool calls,
// terminals, plans and notices, announces subagents (ACP `subagent_update`) and asks permissions. Whatever the
// webview shows then comes from the store's own reducers and action rules, never from hand-made records.
import { STEER_METHOD } from '../../src/store/reducers/steering';
import { announce, Wire } from '../unit/support/storeFixtures';

type Fields = Record<string, unknown>;
type Role = 'agent' | 'thought' | 'user';

/** The v2 whole-message update of each role, and the chunk update that appends to one. */
const MESSAGE_KINDS: Readonly<Record<Role, string>> = { agent: 'agent_message', thought: 'agent_thought', user: 'user_message' };
const CHUNK_KINDS: Readonly<Record<Role, string>> = { agent: 'agent_message_chunk', thought: 'agent_thought_chunk', user: 'user_message_chunk' };

/** Starts a minute ago and advances a second per reading, so elapsed times look realistic. */
function tickingClock(): () => number {
  let clock = Date.now() - 60_000;
  return () => (clock += 1000);
}

/** An ACP text content block. */
export function textBlock(text: string): Fields {
  return { type: 'text', text };
}

export class SceneWire extends Wire {
  private readonly seenToolCalls = new Set<string>();
  private readonly parents = new Map<string, string>();
  private nextMessageId = 1;

  /** An ACP v2 connection (initialize answered with `agent`'s fields: capabilities, steering). */
  constructor(agent: Fields = {}) {
    super({ now: tickingClock() });
    this.initializeV2(agent);
  }

  private initializeV2(agent: Fields): void {
    this.initialize({ protocolVersion: 2, ...agent });
  }

  /** A session the client opened (session/new, answered with `result`), named by the agent when `title` is given. */
  root(sessionId: string, title?: string, result: Fields = {}): this {
    this.newSession(sessionId, '/repo', result);
    return title === undefined ? this : this.update(sessionId, { sessionUpdate: 'session_info_update', title });
  }

  /**
   * The client's session/prompt (its words, then any attachments, go into the transcript), acknowledged at once
   * as v2 agents do; the turn runs until endTurn or failTurn.
   */
  override prompt(sessionId: string, text: string, attachments: Fields[] = []): (stopReason: string) => void {
    this.clientRequest('session/prompt', { sessionId, prompt: [textBlock(text), ...attachments] }, {});
    return (stopReason) => this.endTurn(sessionId, stopReason);
  }

  /** The client's steer (a message into the running turn), answered with `outcome` (injected, promptRequired, startedNewTurn). */
  steer(sessionId: string, text: string, outcome = 'injected'): this {
    return this.clientRequest(STEER_METHOD, { sessionId, prompt: [textBlock(text)] }, { outcome });
  }

  /**
   * The agent restarted with other capabilities (`agent`, as for the constructor) and the client resumed
   * `sessionId` on it: the store reads the new initialize answer, and the resume is a change views see.
   */
  restartAgent(agent: Fields, sessionId: string): this {
    this.initializeV2(agent);
    return this.clientRequest('session/resume', { sessionId, cwd: '/repo' }, {});
  }

  /** The turn ends: the session reports itself idle (how a v2 turn ends), with a stop reason. */
  endTurn(sessionId: string, stopReason = 'end_turn'): this {
    return this.state(sessionId, { state: 'idle', stopReason });
  }

  /** The turn fails: the session reports itself idle with an error. */
  failTurn(sessionId: string, message: string): this {
    return this.state(sessionId, { state: 'idle', stopReason: { stopReason: 'error', error: { code: -32603, message } } });
  }

  /** The store's id of the transcript entry for the message the agent sent as `messageId` (what the DOM shows). */
  entryId(sessionId: string, messageId: string): string {
    const entry = this.session(sessionId).entries.find((e) => e.kind === 'message' && e.messageId === messageId);
    if (!entry) throw new Error(`no message ${messageId} in ${sessionId}`);
    return entry.id;
  }

  /** A whole message (ACP v2 upsert keyed by `messageId`): sending the same id again replaces its text. */
  say(sessionId: string, role: Role, text: string, messageId = `m${this.nextMessageId++}`): this {
    return this.update(sessionId, { sessionUpdate: MESSAGE_KINDS[role], messageId, content: [textBlock(text)] });
  }

  /** A message chunk (appended to the message with the same id, or to the last one of that role). */
  chunk(sessionId: string, role: Role, text: string, messageId?: string): this {
    return this.update(sessionId, { sessionUpdate: CHUNK_KINDS[role], content: textBlock(text), ...(messageId ? { messageId } : {}) });
  }

  /** `tool_call` the first time an id is seen, `tool_call_update` after (a patch: omitted fields keep). */
  toolCall(sessionId: string, toolCallId: string, fields: Fields = {}): this {
    const first = !this.seenToolCalls.has(`${sessionId}\0${toolCallId}`);
    this.seenToolCalls.add(`${sessionId}\0${toolCallId}`);
    return this.update(sessionId, { sessionUpdate: first ? 'tool_call' : 'tool_call_update', toolCallId, ...fields });
  }

  /** An agent terminal (`terminal_update`): `output` replaces what it showed. */
  terminal(sessionId: string, terminalId: string, fields: { command?: string; output?: string; exitStatus?: Fields | null; capabilities?: Fields | null } = {}): this {
    const { output, ...rest } = fields;
    const data = output === undefined ? {} : { output: { data: Buffer.from(output, 'utf8').toString('base64') } };
    return this.update(sessionId, { sessionUpdate: 'terminal_update', terminalId, ...rest, ...data });
  }

  /** More output on an agent terminal (`terminal_output_chunk`). */
  terminalOutput(sessionId: string, terminalId: string, text: string): this {
    return this.update(sessionId, { sessionUpdate: 'terminal_output_chunk', terminalId, data: Buffer.from(text, 'utf8').toString('base64') });
  }

  /**
   * A subagent announced by its parent: the first announcement says it runs and grants cancel unless `fields`
   * say otherwise; later ones patch only what `fields` name (null clears).
   */
  child(parentId: string, childId: string, fields: Fields = {}): this {
    const first = !this.parents.has(childId);
    this.parents.set(childId, parentId);
    return this.update(parentId, announce(childId, first ? { capabilities: { cancel: {} }, state: { state: 'running' }, ...fields } : fields));
  }

  /** A reported state: a subagent's through its parent's announcement, a root's through its own `state_update`. */
  state(sessionId: string, state: Fields): this {
    const parentId = this.parents.get(sessionId);
    if (parentId) return this.update(parentId, announce(sessionId, { state }));
    return this.update(sessionId, { sessionUpdate: 'state_update', ...state });
  }

  plan(sessionId: string, entries: Fields[], planId?: string): this {
    if (planId === undefined) return this.update(sessionId, { sessionUpdate: 'plan', entries });
    return this.update(sessionId, { sessionUpdate: 'plan_update', plan: { planId, entries } });
  }

  removePlan(sessionId: string, planId: string): this {
    return this.update(sessionId, { sessionUpdate: 'plan_removed', planId });
  }

  notice(sessionId: string, severity: string, title: string, description?: string): this {
    return this.update(sessionId, { sessionUpdate: 'notice', severity, title, ...(description === undefined ? {} : { description }) });
  }

  /** A message between sessions (`session_message`), shown in `sessionId`'s transcript. */
  sessionMessage(sessionId: string, messageId: string, fields: { senderSessionId?: string; recipientSessionId?: string; text: string }): this {
    const { text, ...link } = fields;
    return this.update(sessionId, { sessionUpdate: 'session_message', messageId, ...link, content: [textBlock(text)] });
  }

  /** The agent's session/request_permission (v2: about a tool call) with JSON-RPC id `requestId`, left for the user to answer. */
  askPermission(sessionId: string, requestId: number, toolCall: Fields, options: Fields[], extra: Fields = {}): this {
    this.store.ingest({ jsonrpc: '2.0', id: requestId, method: 'session/request_permission', params: { sessionId, subject: { type: 'tool_call', toolCall }, options, ...extra } }, 'agent->client');
    return this;
  }

  /** The client's answer to a permission request: the option chosen, or none (dismissed). */
  answerPermission(requestId: number, optionId: string | null): this {
    const outcome = optionId === null ? { outcome: 'cancelled' } : { outcome: 'selected', optionId };
    return this.clientResult(requestId, { outcome });
  }
}
