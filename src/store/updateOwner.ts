// Which session an update or a request belongs to. Pure: it reads the update and asks the tree who owns a
// tool call, and returns a decision; the store carries it out (creating a virtual child when asked).
import type { SessionLink, SessionOrigin } from './model';
import { copilotAgentIdOf } from './dialects/copilot';
import { markedParentOf } from './dialects/detect';
import { parentMarkerOf } from './subagentDialects';
import { asString, type JsonObject } from './wireMessage';

export type UpdateOwner =
  | { readonly kind: 'session'; readonly sessionId: string }
  | {
      readonly kind: 'virtual';
      /** The session that owns the parent tool call (the wire session, or a virtual child of it when nested). */
      readonly parentId: string;
      readonly toolCallId: string;
      readonly link: SessionLink;
      readonly subagentType?: string;
      /** The marker names a tool call that was never seen on this session. */
      readonly unknownParentCall?: true;
      /** Copilot: the subagent the update is tagged with; `unlinked` while its task call is not known. */
      readonly copilotAgentId?: string;
      readonly unlinked?: true;
    };

export interface OwnerLookup {
  /** The session that owns a tool call seen on a wire session id, if any. */
  toolOwner(wireSessionId: string, toolCallId: string): string | undefined;
  /** Copilot: the `task` call that started an agentId, when it is known (or certain: the only open task). */
  copilotTaskOf?(wireSessionId: string, agentId: string): string | undefined;
}

/** Where a Copilot subagent's updates gather while its task call is not known yet. */
export function unlinkedAgentKey(agentId: string): string {
  return `agent:${agentId}`;
}

interface WireSession {
  readonly id: string;
  readonly origin: SessionOrigin;
}

/** Dialects that keep a child's events on the parent's session id mark them; unmarked updates of a known tool call stay with its owner. */
export function resolveUpdateOwner(wire: WireSession, update: JsonObject, lookup: OwnerLookup): UpdateOwner {
  const agentId = copilotAgentIdOf(update);
  if (agentId) {
    const task = lookup.copilotTaskOf?.(wire.id, agentId);
    // Never guess between several open tasks: the agent's calls gather under it until the link is known.
    if (!task) return { kind: 'virtual', parentId: wire.id, toolCallId: unlinkedAgentKey(agentId), link: 'copilot-meta', copilotAgentId: agentId, unlinked: true };
    return { kind: 'virtual', parentId: lookup.toolOwner(wire.id, task) ?? wire.id, toolCallId: task, link: 'copilot-meta', copilotAgentId: agentId };
  }
  const marker = parentMarkerOf(update) ?? markedParentOf(update);
  if (marker) {
    const base = { kind: 'virtual', toolCallId: marker.parentToolCallId, link: marker.link, ...(marker.subagentType ? { subagentType: marker.subagentType } : {}) } as const;
    const owner = lookup.toolOwner(wire.id, marker.parentToolCallId);
    if (owner) return { ...base, parentId: owner };
    // On an announced child the marker only echoes the parent's tool id (Claude's RFD form).
    if (wire.origin === 'announced') return { kind: 'session', sessionId: wire.id };
    return { ...base, parentId: wire.id, unknownParentCall: true };
  }
  // Updates without the marker (Claude's hook echo) stay with the session that already owns the tool call.
  const toolCallId = asString(update['toolCallId']);
  const owner = toolCallId ? lookup.toolOwner(wire.id, toolCallId) : undefined;
  return { kind: 'session', sessionId: owner ?? wire.id };
}

/** A permission request names its tool call; an unmarked one belongs to whoever owns that call (Claude, Copilot, qwen). */
export function resolveRequestOwner(wire: WireSession, toolCall: JsonObject, lookup: OwnerLookup): UpdateOwner {
  const toolCallId = asString(toolCall['toolCallId']);
  if (toolCallId && parentMarkerOf(toolCall) === undefined) {
    const owner = lookup.toolOwner(wire.id, toolCallId);
    if (owner) return { kind: 'session', sessionId: owner };
  }
  return resolveUpdateOwner(wire, toolCall, lookup);
}
