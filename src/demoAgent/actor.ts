// One running (sub)agent of a scripted turn: paced emission of updates, tool calls, client requests,
// and spawning children. Once its scope is cancelled it emits nothing more of its own script.
import { type CancelScope, Cancelled, sleep } from './cancelScope';
import type { Channel, ChildLink, ChildOutcome, ChildSpec, SendUpdate, StampInfo, Update } from './channel';
import { textBlock, textContent } from './channel';
import type { Dialect } from './dialects';
import type { Json, JsonObject } from './lineRpc';
import { isObject } from './lineRpc';
import type { SteerInbox } from './steerInbox';

/** How an actor reads steers: where they wait, and what it does with one when it lands. */
export interface SteerReader {
  readonly inbox: SteerInbox;
  land(actor: Actor, text: string): Promise<unknown>;
}

export interface ClientFeatures {
  readonly readTextFile: boolean;
  readonly writeTextFile: boolean;
  readonly terminal: boolean;
  /** ACP v2: the agent runs commands in terminals of its own (terminal_update), which the client can cancel. */
  readonly agentTerminal?: boolean;
  /** ACP v2: no client fs; the agent reads and writes its files itself (only under the session cwd). */
  readonly agentFiles?: boolean;
}

/** v2 items the client may cancel on their own (`tool_call/cancel`, `terminal/cancel`). */
export type CancellableItem = { readonly toolCallId: string } | { readonly terminalId: string };

/** What every actor of one connection shares. */
export interface RunContext {
  readonly send: SendUpdate;
  request(method: string, params: JsonObject): Promise<Json>;
  readonly dialect: Dialect;
  readonly client: ClientFeatures;
  /** Delay between steps in ms. */
  readonly pace: number;
  newId(prefix: string): string;
  /** Lets session/cancel reach a child; returns the unregister function. */
  registerCancelTarget(sessionId: string, scope: CancelScope): () => void;
  /** Lets `tool_call/cancel` / `terminal/cancel` reach one item; returns the unregister function. */
  registerItemCancel(item: CancellableItem, scope: CancelScope): () => void;
  /** Makes a spawned child known (for relays): how it reads what is passed on to it, and how it is marked ended. */
  registerChild(link: ChildLink): ChildRegistration;
  log(message: string): void;
}

export interface ChildRegistration {
  /** Where messages passed on to the running child wait for its next step (children that can be messaged). */
  readonly steers?: SteerReader;
  ended(): void;
}

export interface ToolSpec {
  readonly title: string;
  readonly kind: string;
  /** Programmatic tool name (ACP `name`; dialects also stamp it). */
  readonly name: string;
  readonly rawInput?: JsonObject;
  readonly content?: JsonObject[];
  readonly locations?: JsonObject[];
}

const PERMISSION_OPTIONS: JsonObject[] = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];

export type PermissionAnswer = 'allow_once' | 'allow_always' | 'rejected';

export type ChildBody = (actor: Actor) => Promise<string>;

/** Where an actor's work state and progress notes go: a child's link to its parent, or (v2) the root's own session. */
export type StateReport = Pick<ChildLink, 'setState' | 'progress'>;

export class Actor {
  private readonly openToolCalls = new Map<string, string>();
  private readonly children: Promise<ChildOutcome>[] = [];
  private outputChars = 0;
  private readingSteers = false;

  constructor(
    readonly ctx: RunContext,
    readonly channel: Channel,
    readonly scope: CancelScope,
    private readonly link?: StateReport,
    /** The root reads the user's steers; a child that can be messaged, what the root passes on. */
    private readonly steers?: SteerReader,
  ) {}

  /** Waits one step (or `ms`), then stops the script if it was cancelled meanwhile. */
  async pause(ms = this.ctx.pace): Promise<void> {
    await sleep(ms, this.scope);
    this.scope.throwIfCancelled();
  }

  /** One step of the script: first the steers that arrived (so they land between messages, never inside one). */
  private async step(ms = this.ctx.pace): Promise<void> {
    await this.readSteers();
    await this.pause(ms);
  }

  /** Lands the steers waiting for this actor, one by one (a steer that arrives while one lands waits its turn). */
  async readSteers(): Promise<void> {
    if (!this.steers?.inbox.hasWaiting || this.readingSteers) return;
    this.readingSteers = true;
    try {
      for (let text = this.steers.inbox.take(); text !== undefined; text = this.steers.inbox.take()) await this.steers.land(this, text);
    } finally {
      this.readingSteers = false;
    }
  }

  /** Waits for `work` (its subagents), reading the steers that arrive meanwhile. */
  async waitReadingSteers<T>(work: Promise<T>): Promise<T> {
    const steers = this.steers;
    if (!steers) return work;
    let done = false;
    const finished = work.finally(() => (done = true));
    while (!done) {
      await Promise.race([finished, steers.inbox.arrival()]);
      await this.readSteers();
    }
    return work;
  }

  emit(update: Update, info?: StampInfo): void {
    this.scope.throwIfCancelled();
    this.ctx.send(this.channel, update, info);
  }

  async say(text: string, role: 'agent' | 'thought' = 'agent'): Promise<void> {
    await this.stream(chunkText(text), this.ctx.pace / 3, role);
  }

  /** Streams chunks as one message (same messageId). */
  async stream(chunks: Iterable<string>, delayMs: number, role: 'agent' | 'thought' = 'agent'): Promise<void> {
    await this.readSteers();
    const messageId = this.ctx.newId('msg_');
    const sessionUpdate = role === 'agent' ? 'agent_message_chunk' : 'agent_thought_chunk';
    for (const chunk of chunks) {
      await this.pause(delayMs);
      this.emit({ sessionUpdate, content: textBlock(chunk), messageId });
      this.outputChars += chunk.length;
    }
  }

  async plan(entries: JsonObject[]): Promise<void> {
    await this.step();
    this.emit({ sessionUpdate: 'plan', entries });
  }

  async startTool(tool: ToolSpec): Promise<string> {
    await this.step();
    const toolCallId = this.ctx.newId(this.ctx.dialect.toolCallPrefix);
    this.emit(
      {
        sessionUpdate: 'tool_call',
        toolCallId,
        title: tool.title,
        kind: tool.kind,
        status: 'pending',
        name: tool.name,
        rawInput: tool.rawInput ?? {},
        content: tool.content ?? [],
        locations: tool.locations ?? [],
      },
      { toolName: tool.name },
    );
    this.openToolCalls.set(toolCallId, tool.name);
    this.link?.progress(tool.title);
    return toolCallId;
  }

  async updateTool(toolCallId: string, fields: JsonObject): Promise<void> {
    await this.step();
    this.emit({ sessionUpdate: 'tool_call_update', toolCallId, ...fields }, { toolName: this.openToolCalls.get(toolCallId) });
  }

  async endTool(toolCallId: string, status: 'completed' | 'failed' | 'cancelled', fields: JsonObject = {}): Promise<void> {
    await this.updateTool(toolCallId, { status, ...fields });
    this.openToolCalls.delete(toolCallId);
  }

  /** Asks the user under this agent's own session id; a cancelled answer stops the script if it was cancelled. */
  async askPermission(toolCallId: string, tool: ToolSpec, content: JsonObject[]): Promise<PermissionAnswer> {
    this.scope.throwIfCancelled();
    const stamped = this.channel.stamp(
      { sessionUpdate: 'tool_call', toolCallId, title: tool.title, kind: tool.kind, status: 'pending', rawInput: tool.rawInput ?? {}, content, locations: tool.locations ?? [] },
      { toolName: tool.name },
    );
    const { sessionUpdate: _tag, ...toolCall } = stamped;
    this.link?.setState('requires_action');
    this.link?.progress(`Waiting for permission: ${tool.title}`);
    const response = await this.clientRequest('session/request_permission', { toolCall, options: PERMISSION_OPTIONS });
    this.scope.throwIfCancelled();
    this.link?.setState('running');
    const outcome = isObject(response) && isObject(response.outcome) ? response.outcome : {};
    if (outcome.outcome !== 'selected') return 'rejected';
    const option = PERMISSION_OPTIONS.find((candidate) => candidate.optionId === outcome.optionId);
    if (option?.kind === 'allow_once') return 'allow_once';
    if (option?.kind === 'allow_always') return 'allow_always';
    return 'rejected';
  }

  /** A request to the client on behalf of this agent (fs, terminal, permission), with its session id. */
  clientRequest(method: string, params: JsonObject): Promise<Json> {
    return this.ctx.request(method, { sessionId: this.channel.wireSessionId, ...params });
  }

  /** Announces a child and runs it concurrently; the promise never rejects. */
  spawn(spec: ChildSpec, body: ChildBody): Promise<ChildOutcome> {
    this.scope.throwIfCancelled();
    const link = this.ctx.dialect.spawn(this.channel, spec);
    const scope = this.scope.child();
    link.announce();
    const unregister = link.cancelTarget ? this.ctx.registerCancelTarget(link.cancelTarget, scope) : () => undefined;
    const registration = this.ctx.registerChild(link);
    const child = new Actor(this.ctx, link.channel, scope, link, registration.steers);
    const run = child.run(body, true).then((result) => {
      unregister();
      // The end is reported only here: a cancel taken after the last step (before this report) still wins.
      const outcome: ChildOutcome = scope.cancelled && result.stopReason === 'end_turn' ? { ...result, stopReason: 'cancelled', reply: 'Cancelled before finishing.' } : result;
      link.finish(outcome);
      registration.ended();
      return outcome;
    });
    this.children.push(run);
    return run;
  }

  /** Runs a script to its outcome; on cancel or error closes open tool calls and waits for children first. */
  async run(body: ChildBody, awaitChildren: boolean): Promise<ChildOutcome> {
    try {
      const reply = await body(this);
      // A steer that came after the script's last step is still read before the turn ends.
      await this.readSteers();
      if (awaitChildren) await this.settleChildren();
      return { stopReason: 'end_turn', reply, usage: this.usage() };
    } catch (error) {
      const cancelled = error instanceof Cancelled;
      if (!cancelled) this.ctx.log(`scripted run failed: ${error instanceof Error ? error.stack : String(error)}`);
      this.closeOpenToolCalls(cancelled ? 'Cancelled.' : 'Failed.');
      await this.settleChildren();
      const reply = cancelled ? 'Cancelled before finishing.' : error instanceof Error ? error.message : String(error);
      return { stopReason: cancelled ? 'cancelled' : 'error', reply, usage: this.usage() };
    }
  }

  async settleChildren(): Promise<ChildOutcome[]> {
    return Promise.all(this.children);
  }

  usage(): { inputTokens: number; outputTokens: number; totalTokens: number } {
    const outputTokens = Math.ceil(this.outputChars / 4);
    const inputTokens = 120;
    return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
  }

  /** Cleanup after a stop: bypasses the cancel check on purpose. */
  private closeOpenToolCalls(reason: string): void {
    for (const [toolCallId, toolName] of this.openToolCalls) {
      this.ctx.send(this.channel, { sessionUpdate: 'tool_call_update', toolCallId, status: 'failed', content: [textContent(reason)] }, { toolName });
    }
    this.openToolCalls.clear();
  }
}

/** Splits text into small chunks of up to three words (whitespace kept), like a model stream. */
function chunkText(text: string): string[] {
  const words = text.match(/\s*\S+\s*/g) ?? [text];
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += 3) chunks.push(words.slice(i, i + 3).join(''));
  return chunks;
}
