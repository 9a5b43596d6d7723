// `_session/steering` in the demo agent (the extension claude-agent-acp and codex-acp ship): a message from the
// user that joins the running turn at the root's next step, or starts a short turn when none runs. A relay for
// a subagent (src/protocol/relayText) arrives the same way, or as a prompt, and the root passes it on.
import { parseRelayText } from '../protocol/relayText';
import { Actor } from './actor';
import type { Channel, ChildMessaging } from './channel';
import type { Json, JsonObject } from './lineRpc';
import { ErrorCodes, RpcError, isObject } from './lineRpc';
import type { SteerInbox } from './steerInbox';

export const STEERING_METHOD = '_session/steering';

export interface SteerRequest {
  readonly text: string;
  /** `_meta.steering.idleBehavior: "promptRequired"`: with no turn running, do nothing and ask for a prompt. */
  readonly promptRequired: boolean;
}

/** Reads a steer's prompt and idle behaviour; -32602 for what the adapters refuse (and for a prompt without text). */
export function parseSteerRequest(params: JsonObject): SteerRequest {
  const text = steerText(params.prompt);
  const steering = isObject(params._meta) && isObject(params._meta.steering) ? params._meta.steering : {};
  const idleBehavior = steering.idleBehavior;
  if (idleBehavior !== undefined && idleBehavior !== 'promptRequired') {
    throw new RpcError(ErrorCodes.invalidParams, `Unknown idleBehavior ${JSON.stringify(idleBehavior)} (the only one is "promptRequired")`);
  }
  return { text, promptRequired: idleBehavior === 'promptRequired' };
}

function steerText(prompt: Json | undefined): string {
  if (!Array.isArray(prompt) || prompt.length === 0) throw new RpcError(ErrorCodes.invalidParams, 'prompt must be a non-empty array of content blocks');
  const texts = prompt.flatMap((block) => (isObject(block) && block.type === 'text' && typeof block.text === 'string' ? [block.text] : []));
  if (texts.length === 0) throw new RpcError(ErrorCodes.invalidParams, 'prompt needs a text block (the demo agent reads only text)');
  return texts.join('\n');
}

/** How the root reaches the subagent a relay names. */
export type RelayTarget =
  /** A child with a session of its own (acp dialect): the message reaches it as session_message views. */
  | { readonly kind: 'session'; readonly channel: Channel; readonly messaging: ChildMessaging; readonly steers: SteerInbox; readonly ended: boolean }
  /** A child the root knows but cannot message on the wire (other dialects, or the client's virtual id for one). */
  | { readonly kind: 'named' }
  | { readonly kind: 'unknown' };

type FindRelayTarget = (childId: string) => RelayTarget;

/** The root's answer to a message from the user outside the script: a relay is passed on, anything else quoted. */
export async function answerMessage(actor: Actor, text: string, findTarget: FindRelayTarget): Promise<string> {
  const relay = parseRelayText(text);
  if (!relay) return sayAndReturn(actor, `Noted your message: "${text}". `);
  const target = findTarget(relay.childId);
  if (target.kind === 'unknown') return sayAndReturn(actor, `Noted your message for ${relay.childLabel}: "${relay.text}". I have no such subagent to pass it on to. `);
  const said = await sayAndReturn(actor, `Passing your message on to ${relay.childLabel}: "${relay.text}". `);
  if (target.kind === 'session') await deliver(actor, target, relay.text);
  return said;
}

/**
 * The root's message to the child, which answers it: a running child at its next step, one that already ended by
 * running again for that answer (running, then idle), so the client sees it work.
 */
async function deliver(root: Actor, target: Extract<RelayTarget, { kind: 'session' }>, words: string): Promise<void> {
  target.messaging.deliver(root.channel, words);
  if (!target.ended) {
    target.steers.post(words);
    return;
  }
  const rest = target.messaging.wake();
  const outcome = await new Actor(root.ctx, target.channel, root.scope).run((child) => answerAsChild(child, words), false);
  rest(outcome);
  root.scope.throwIfCancelled();
}

/** A subagent's short answer to a message passed on to it. */
export function answerAsChild(child: Actor, words: string): Promise<string> {
  return sayAndReturn(child, `Got your message: "${words}". `);
}

async function sayAndReturn(actor: Actor, text: string): Promise<string> {
  await actor.say(text);
  return text;
}
