// `_session/steering` in the demo agent (the extension claude-agent-acp and codex-acp ship): a message from the
// user that joins the running turn at the root's next step, or starts a short turn when none runs.
import type { Actor } from './actor';
import type { Json, JsonObject } from './lineRpc';
import { ErrorCodes, RpcError, isObject } from './lineRpc';

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

/** The root's answer to a message from the user outside the script: it quotes it. */
export async function answerMessage(actor: Actor, text: string): Promise<string> {
  return sayAndReturn(actor, `Noted your message: "${text}". `);
}

async function sayAndReturn(actor: Actor, text: string): Promise<string> {
  await actor.say(text);
  return text;
}
