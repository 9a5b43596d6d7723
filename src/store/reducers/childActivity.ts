// Traffic on a child linked by a tool call, and children that name their parent's tool call from their own
// session id (AgentPool).
import type { SessionRecord } from '../model';
import { subagentTitle } from '../sessionTree';
import type { ReducerContext } from '../reducerContext';
import { agentPoolParentOf } from '../subagentDialects';
import { isObject, type JsonObject } from '../wireMessage';
import { markBackground } from './toolCalls';

/** Updates that show a child doing new work (not echoes of what it already did). */
const NEW_ACTIVITY = new Set(['agent_message_chunk', 'agent_thought_chunk', 'tool_call']);

/**
 * A child linked by a tool call: its card goes where its own traffic starts, and new work after its launch
 * call completed means it runs on in the background.
 */
export function noteChildActivity(parts: ReducerContext, child: SessionRecord, kind: string, update: JsonObject): void {
  parts.tree.noteChildTraffic(child);
  if (child.origin !== 'virtual' || child.background || !NEW_ACTIVITY.has(kind)) return;
  const block = isObject(update['content']) ? update['content'] : undefined;
  if (kind !== 'tool_call' && !(typeof block?.['text'] === 'string' && block['text'] !== '')) return;
  const call = child.parentId && child.parentToolCallId ? parts.core.session(child.parentId)?.toolCalls[child.parentToolCallId] : undefined;
  if (call?.status === 'completed') markBackground(parts, child);
}

/** AgentPool: child traffic under the child's own id names its parent's tool call in params `_meta`. */
export function adoptAgentPoolChild(parts: ReducerContext, wire: SessionRecord, params: JsonObject): void {
  const agentPool = agentPoolParentOf(params);
  if (!agentPool || wire.parentId !== null) return;
  const owner = parts.tree.parentOwnerFor(wire.id, agentPool.parentToolCallId);
  if (!owner) return;
  const child = parts.tree.adoptChild(owner, wire.id, 'agentpool-meta', agentPool.parentToolCallId);
  const call = parts.core.session(owner)?.toolCalls[agentPool.parentToolCallId];
  if (child && call && !call.childSessionId) {
    call.childSessionId = child.id;
    child.title ??= subagentTitle(call);
    parts.core.touch(child);
  }
  if (child && agentPool.subagentType && !child.subagentType) child.subagentType = agentPool.subagentType;
}
