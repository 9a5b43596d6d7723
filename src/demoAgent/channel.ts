// The wire-level pieces shared by the scripted runs and the subagent dialects.
import type { JsonObject } from './lineRpc';

export type Update = JsonObject & { sessionUpdate: string };

/** Facts about an update a dialect may need to mark it (e.g. qwen stamps the child tool's name). */
export interface StampInfo {
  readonly toolName?: string;
}

/** Where one (sub)agent's traffic goes on the wire, and how it is marked as belonging to it. */
export interface Channel {
  /** The root session whose history (session/load replay) records this traffic. */
  readonly rootSessionId: string;
  /** `params.sessionId` of this agent's updates and requests. */
  readonly wireSessionId: string;
  /** `params._meta` for this agent's updates (AgentPool/zed style). */
  readonly paramsMeta?: JsonObject;
  /** Adds the dialect's link markers to one of this agent's updates. */
  stamp(update: Update, info?: StampInfo): Update;
}

/** Sends one session/update for a channel (and records it for replay). */
export type SendUpdate = (channel: Channel, update: Update, info?: StampInfo) => void;

type ChildStopReason = 'end_turn' | 'cancelled' | 'error';

export interface ChildOutcome {
  readonly stopReason: ChildStopReason;
  /** The child's answer to its parent (end_turn), or why it stopped. */
  readonly reply: string;
  readonly usage?: { inputTokens: number; outputTokens: number; totalTokens: number };
}

/** What the parent asks a subagent to do. */
export interface ChildSpec {
  /** Catalog id (`availableSubagents`, `subagent_type`). */
  readonly subagentId: string;
  readonly title: string;
  readonly description: string;
  readonly prompt: string;
  /** Whether the client may stop this child on its own (`capabilities.cancel`). */
  readonly cancellable: boolean;
  readonly runMode: 'foreground' | 'background';
}

/** One spawned subagent as a dialect puts it on the wire. */
export interface ChildLink {
  readonly channel: Channel;
  /** The session id a client may send session/cancel to, when the dialect lets it address the child. */
  readonly cancelTarget?: string;
  /** Announces the child and hands it its prompt; nothing of the child is sent before this. */
  announce(): void;
  /** Work state changes the parent should see (waiting for the user, running again). */
  setState(state: 'running' | 'requires_action'): void;
  /** A one-line note about what the child is doing (qwen's progress copies). */
  progress(text: string): void;
  finish(outcome: ChildOutcome): void;
  /** Only where a child has a session of its own (acp): how other sessions message it. */
  readonly messaging?: ChildMessaging;
}

/** Messages to a child that has a session of its own, and its running again to answer one after it ended. */
export interface ChildMessaging {
  /** Sends `text` from `sender` to the child as session_message views: the sender's copy and the child's. */
  deliver(sender: Channel, text: string): void;
  /** Reports the ended child running again; the function returned reports it idle again, with that outcome. */
  wake(): (outcome: ChildOutcome) => void;
}

export function textBlock(text: string): JsonObject {
  return { type: 'text', text };
}

export function textContent(text: string): JsonObject {
  return { type: 'content', content: textBlock(text) };
}

/** The demo's made-up price of its tokens (a real agent reports its own cost; the client never computes one). */
export function demoCost(tokens: number): { amount: number; currency: string } {
  return { amount: Math.round(tokens * 0.000002 * 10000) / 10000, currency: 'USD' };
}
