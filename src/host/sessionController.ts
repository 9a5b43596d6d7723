// Carries out what the session controller decides (src/store/sessionControls.ts): a message the user sends goes
// the way the verdict says — a prompt, a steer of the running turn, the session's queue, or a relay through a
// subagent's parent — and each queue sends its next message when its session's turn ends. The one path for
// the chat's prompt box, the palette, "Message Subagent…" and the public API. No `vscode` import.
import type { ContentBlock, PromptResponse } from '@agentclientprotocol/sdk/unstable';
import type { AgentConnection } from '../acp/agentConnection';
import type { PromptDelegation } from '../acp/delegation';
import { ActionRefusedError } from '../acp/errors';
import { relayPromptText } from '../protocol/relayText';
import type { QueuedPrompt, SessionView } from '../store/model';
import type { SessionStore } from '../store/sessionStore';

/** The connection a controller works on (an AgentRuntime fits). */
export interface ControlledRuntime {
  readonly id: string;
  readonly store: SessionStore;
}

export interface ControllerDeps {
  /** The live connection of a runtime; throws (with the reason) when there is none. */
  readonly connection: (runtime: ControlledRuntime) => AgentConnection;
  /** Asks the user a yes/no question before sending (the verdict's `confirm`); without it such a message is not sent. */
  readonly confirm?: (question: string) => Promise<boolean>;
  readonly log?: (text: string) => void;
  readonly now?: () => number;
}

export interface SendOptions {
  /** Queue it even though the running turn could take it now (the prompt box's "Queue instead"). */
  readonly queue?: boolean;
  /** A prompt's delegation preference (only for a prompt sent now). */
  readonly delegation?: PromptDelegation;
}

export interface SendResult {
  /** What the message became. */
  readonly route: 'prompt' | 'steer' | 'queue' | 'relay';
  /** The session it went to (a relay's parent). */
  readonly sessionId: string;
  /** For a relay: how the parent took it. */
  readonly via?: 'prompt' | 'steer' | 'queue';
  /** For a prompt sent now: the end of its turn. */
  readonly turn?: Promise<PromptResponse>;
}

export class SessionController {
  /** Sessions (runtime + session) whose next queued message is being sent: one per turn end. */
  private readonly draining = new Set<string>();
  private counter = 0;

  constructor(private readonly deps: ControllerDeps) {}

  /** Sends the user's message where the session's verdict says, or refuses with the reason (nothing is sent). */
  async send(runtime: ControlledRuntime, sessionId: string, content: string | readonly ContentBlock[], options: SendOptions = {}): Promise<SendResult> {
    const blocks: ContentBlock[] = typeof content === 'string' ? [{ type: 'text', text: content }] : [...content];
    const verdict = runtime.store.actionsFor(sessionId);
    const { send } = verdict;
    if (send.route === 'refuse') throw new ActionRefusedError(sessionId, 'send a message to', send.reason);
    if (send.confirm && !(await this.deps.confirm?.(send.confirm))) throw new ActionRefusedError(sessionId, 'send a message to', 'you chose not to send it');
    if (send.route === 'relay') return this.relay(runtime, sessionId, send.via?.sessionId, blocks, options);
    const queue = send.route === 'queue' || (options.queue === true && verdict.queue.allowed);
    if (queue) {
      this.enqueue(runtime, sessionId, blocks, text(blocks));
      return { route: 'queue', sessionId };
    }
    if (send.route === 'steer') return { route: await this.steer(runtime, sessionId, blocks), sessionId };
    return { route: 'prompt', sessionId, turn: this.prompt(runtime, sessionId, blocks, options.delegation) };
  }

  /** Takes a queued message back; false when it is no longer queued (already sent). */
  unqueue(runtime: ControlledRuntime, sessionId: string, id: string): boolean {
    return runtime.store.unqueue(sessionId, id) !== undefined;
  }

  /** Sends the next queued message of each changed session whose turn has ended. */
  drain(runtime: ControlledRuntime, sessionIds: Iterable<string>): void {
    for (const sessionId of sessionIds) this.drainOne(runtime, sessionId);
  }

  /**
   * A subagent's message goes to the nearest ancestor that takes prompts, labelled with the subagent's name, the
   * way that ancestor's own verdict says (its steer, prompt or queue).
   */
  private async relay(runtime: ControlledRuntime, childId: string, viaId: string | undefined, blocks: ContentBlock[], options: SendOptions): Promise<SendResult> {
    const child = runtime.store.getSession(childId)!;
    if (!viaId) throw new ActionRefusedError(childId, 'relay a message to', 'no session can pass it on');
    if (blocks.some((block) => block.type !== 'text')) throw new ActionRefusedError(childId, 'relay a message to', 'a relay carries text only; attachments go to the parent session\'s own chat');
    const words = text(blocks);
    const labelled: ContentBlock[] = [{ type: 'text', text: relayPromptText({ childLabel: child.label, childId: child.id }, words) }];
    const parent = runtime.store.actionsFor(viaId);
    if (parent.send.route === 'queue' || (options.queue === true && parent.queue.allowed)) {
      this.enqueue(runtime, viaId, labelled, words, child);
      return { route: 'relay', sessionId: viaId, via: 'queue' };
    }
    if (parent.send.route === 'steer') {
      const how = await this.steer(runtime, viaId, labelled);
      return { route: 'relay', sessionId: viaId, via: how === 'steer' ? 'steer' : 'prompt' };
    }
    if (parent.send.route !== 'prompt') throw new ActionRefusedError(childId, 'relay a message to', parent.send.reason);
    void this.prompt(runtime, viaId, labelled).catch((error: unknown) => this.deps.log?.(`A relay to ${child.label} failed: ${String(error)}`));
    return { route: 'relay', sessionId: viaId, via: 'prompt' };
  }

  /** Steers the running turn; where the agent says no turn runs any more, the words go as a prompt. */
  private async steer(runtime: ControlledRuntime, sessionId: string, blocks: ContentBlock[]): Promise<'steer' | 'prompt'> {
    const outcome = await this.deps.connection(runtime).steer(sessionId, blocks);
    if (outcome !== 'promptRequired') return 'steer';
    const verdict = runtime.store.actionsFor(sessionId).send;
    // The turn ended between the verdict and the agent's answer: the message is now what any message would be.
    if (verdict.route === 'queue') this.enqueue(runtime, sessionId, blocks, text(blocks));
    else void this.prompt(runtime, sessionId, blocks).catch((error: unknown) => this.deps.log?.(`A steered message sent as a prompt failed: ${String(error)}`));
    return 'prompt';
  }

  private prompt(runtime: ControlledRuntime, sessionId: string, blocks: ContentBlock[], delegation?: PromptDelegation): Promise<PromptResponse> {
    return this.deps.connection(runtime).prompt(sessionId, blocks, delegation);
  }

  private enqueue(runtime: ControlledRuntime, sessionId: string, blocks: ContentBlock[], words: string, relayFor?: SessionView): void {
    const item: QueuedPrompt = {
      id: `q${++this.counter}`,
      text: words,
      attachments: blocks.filter((block) => block.type !== 'text').length,
      at: (this.deps.now ?? Date.now)(),
      content: blocks,
      ...(relayFor ? { relayFor: { sessionId: relayFor.id, label: relayFor.label } } : {}),
    };
    runtime.store.enqueue(sessionId, item);
    // A queue filled while its session was already free (the turn ended meanwhile) sends at once.
    this.drainOne(runtime, sessionId);
  }

  private drainOne(runtime: ControlledRuntime, sessionId: string): void {
    const session = runtime.store.getSession(sessionId);
    // Every store change of every session passes here: nothing queued and nothing being sent costs no more.
    if (!session || (session.queued.length === 0 && this.draining.size === 0)) return;
    const key = `${runtime.id}\0${sessionId}`;
    if (this.draining.has(key)) {
      // Sent once the store shows its prompt in flight (or the send failed and said so).
      if (session.activePromptId === null) return;
      this.draining.delete(key);
    }
    const next = session.queued[0];
    if (!next) return;
    const verdict = runtime.store.actionsFor(sessionId);
    if (!verdict.prompt.allowed || (verdict.phase !== 'idle' && verdict.phase !== 'agent-started')) return;
    this.draining.add(key);
    runtime.store.unqueue(sessionId, next.id);
    let sent: Promise<PromptResponse>;
    try {
      sent = this.prompt(runtime, sessionId, [...next.content] as ContentBlock[]);
    } catch (error) {
      sent = Promise.reject(error);
    }
    sent.catch((error: unknown) => {
      this.draining.delete(key);
      // Refused before it left (the agent went away): the words stay visible, with why.
      if (runtime.store.getSession(sessionId)?.activePromptId === null) {
        runtime.store.noteClientFact(sessionId, 'A queued message was not sent', `${String((error as Error)?.message ?? error)}\n\nIts words: ${next.text}`);
      }
    });
  }
}

function text(blocks: readonly ContentBlock[]): string {
  return blocks.map((block) => (block.type === 'text' && typeof block.text === 'string' ? block.text : '')).join('');
}
