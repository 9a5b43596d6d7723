// GitHub Copilot CLI (`copilot --acp`): everything arrives on the parent session. A subagent's tool calls carry
// `_meta["github.com/copilot"].agentId`; which `task` call started that agent, and which unmarked text chunk
// it wrote, is told only by Copilot's opt-in `github.com/copilot/sessionEvent` notifications. Those events may
// be dropped: they refine the ACP stream, never replace it. Pure readers of the wire shapes.
import { readCopilotCallUsage, readCopilotSubagentUsage, type UsageReport } from '../usage';
import { asString, isObject, type JsonObject } from '../wireMessage';

export const COPILOT_META_KEY = 'github.com/copilot';
export const COPILOT_EVENT_METHOD = 'github.com/copilot/sessionEvent';
/** The events this client asks for in `initialize` (exact names; unknown ones Copilot ignores). */
export const COPILOT_EVENTS = ['subagent.started', 'subagent.completed', 'subagent.failed', 'assistant.message_start', 'assistant.message_delta', 'assistant.usage'] as const;

/** The agentId a Copilot subagent's tool call is tagged with. */
export function copilotAgentIdOf(update: JsonObject): string | undefined {
  const meta = isObject(update['_meta']) ? update['_meta'] : undefined;
  const copilot = isObject(meta?.[COPILOT_META_KEY]) ? meta[COPILOT_META_KEY] : undefined;
  return asString(copilot?.['agentId']);
}

export type CopilotEvent =
  | { readonly type: 'subagent.started'; readonly sessionId: string; readonly agentId: string; readonly toolCallId: string; readonly displayName?: string }
  | {
      readonly type: 'subagent.completed' | 'subagent.failed';
      readonly sessionId: string;
      readonly agentId: string;
      readonly toolCallId?: string;
      readonly error?: string;
      /** `subagent.completed` with `cancelled: true`: the subagent was stopped, it did not finish. */
      readonly cancelled?: boolean;
      /** What `subagent.completed` says it spent (`totalTokens`) and ran on (`model`). */
      readonly usage?: UsageReport;
    }
  /** One model call's tokens, of the main agent or (with agentId) a subagent. */
  | { readonly type: 'assistant.usage'; readonly sessionId: string; readonly agentId?: string; readonly usage: UsageReport }
  /** A new assistant message begins (Copilot's text chunks carry no messageId: this is where one ends). */
  | { readonly type: 'assistant.message_start'; readonly sessionId: string; readonly agentId?: string }
  | { readonly type: 'assistant.message_delta'; readonly sessionId: string; readonly agentId?: string; readonly text: string };

/** Reads one `github.com/copilot/sessionEvent`; events this client does not use give undefined. */
export function readCopilotEvent(params: JsonObject): CopilotEvent | undefined {
  const sessionId = asString(params['sessionId']);
  const data = isObject(params['data']) ? params['data'] : {};
  const agentId = asString(params['agentId']);
  if (!sessionId) return undefined;
  switch (params['type']) {
    case 'subagent.started': {
      const toolCallId = asString(data['toolCallId']);
      const displayName = asString(data['agentDisplayName']);
      return agentId && toolCallId ? { type: 'subagent.started', sessionId, agentId, toolCallId, ...(displayName ? { displayName } : {}) } : undefined;
    }
    case 'subagent.completed':
    case 'subagent.failed': {
      const toolCallId = asString(data['toolCallId']);
      const error = asString(data['error']) ?? (isObject(data['error']) ? asString(data['error']['message']) : undefined);
      const cancelled = data['cancelled'] === true;
      const usage = params['type'] === 'subagent.completed' ? readCopilotSubagentUsage(data) : undefined;
      return agentId
        ? { type: params['type'], sessionId, agentId, ...(toolCallId ? { toolCallId } : {}), ...(error ? { error } : {}), ...(cancelled ? { cancelled } : {}), ...(usage ? { usage } : {}) }
        : undefined;
    }
    case 'assistant.usage': {
      const usage = readCopilotCallUsage(data);
      return usage ? { type: 'assistant.usage', sessionId, ...(agentId ? { agentId } : {}), usage } : undefined;
    }
    case 'assistant.message_start':
      return { type: 'assistant.message_start', sessionId, ...(agentId ? { agentId } : {}) };
    case 'assistant.message_delta': {
      const text = asString(data['deltaContent']);
      return text !== undefined ? { type: 'assistant.message_delta', sessionId, ...(agentId ? { agentId } : {}), text } : undefined;
    }
    default:
      return undefined;
  }
}

/** A Copilot `task` call: the prompt plus Copilot's `agent_type`. */
export function isCopilotTask(rawInput: JsonObject | undefined): boolean {
  return typeof rawInput?.['prompt'] === 'string' && typeof rawInput['agent_type'] === 'string';
}
