// GitHub Copilot CLI on the store: which `task` call each agentId belongs to, the text its events attribute,
// and its end. See copilotDialect.ts for the wire shapes.
import type { CopilotEvent } from '../copilotDialect';
import type { SessionRecord } from '../model';
import { isToolCallOpen } from '../sessionState';
import type { StoreParts } from '../storeParts';
import { unlinkedAgentKey } from '../updateOwner';
import { ensureVirtualChild } from './toolCalls';
import { noteUsage } from './usage';

/** What the store remembers about Copilot subagents, per wire session. */
export class CopilotState {
  /** `wire\0agentId` → the task call that started it. */
  private readonly agents = new Map<string, string>();
  /** wire → its Copilot task calls, in order. */
  private readonly tasks = new Map<string, string[]>();
  /** wire → text deltas the events announced, waiting for the unmarked chunk that carries the same text. */
  private readonly pendingText = new Map<string, { readonly text: string; readonly agentId?: string }[]>();

  /** The session on this wire launched Copilot subagents (`task` calls). */
  hasTasks(wireId: string): boolean {
    return this.tasks.has(wireId);
  }

  noteTask(wireId: string, toolCallId: string): void {
    const list = this.tasks.get(wireId);
    if (!list) this.tasks.set(wireId, [toolCallId]);
    else if (!list.includes(toolCallId)) list.push(toolCallId);
  }

  linkOf(wireId: string, agentId: string): string | undefined {
    return this.agents.get(`${wireId}\0${agentId}`);
  }

  link(wireId: string, agentId: string, toolCallId: string): void {
    this.agents.set(`${wireId}\0${agentId}`, toolCallId);
  }

  isLinkedTask(wireId: string, toolCallId: string): boolean {
    for (const [key, task] of this.agents) if (task === toolCallId && key.startsWith(`${wireId}\0`)) return true;
    return false;
  }

  tasksOf(wireId: string): readonly string[] {
    return this.tasks.get(wireId) ?? [];
  }

  queueText(wireId: string, text: string, agentId: string | undefined): void {
    let queue = this.pendingText.get(wireId);
    if (!queue) this.pendingText.set(wireId, (queue = []));
    queue.push(agentId ? { text, agentId } : { text });
    // Events the ACP stream never matched must not pile up.
    if (queue.length > 256) queue.splice(0, queue.length - 256);
  }

  /** The announced delta this chunk's text matches (earlier unmatched ones were dropped by Copilot or by us). */
  takeText(wireId: string, text: string): { readonly agentId?: string } | undefined {
    const queue = this.pendingText.get(wireId);
    const index = queue?.findIndex((item) => item.text === text) ?? -1;
    if (!queue || index < 0) return undefined;
    const [match] = queue.splice(0, index + 1).slice(-1);
    return match;
  }
}

/** The task call an agentId belongs to: the known link, or the only open task not linked to another agent. */
export function copilotTaskOf(parts: StoreParts, wireId: string, agentId: string): string | undefined {
  const known = parts.copilot.linkOf(wireId, agentId);
  if (known) return known;
  const open = parts.copilot.tasksOf(wireId).filter((toolCallId) => {
    const owner = parts.tree.toolOwner(wireId, toolCallId);
    const call = owner ? parts.core.session(owner)?.toolCalls[toolCallId] : undefined;
    return call !== undefined && isToolCallOpen(call.status) && !parts.copilot.isLinkedTask(wireId, toolCallId);
  });
  return open.length === 1 ? open[0] : undefined;
}

/** The agent's updates went to its task's child: remember the link, and fold in what gathered before it was known. */
export function linkCopilotAgent(parts: StoreParts, wireId: string, agentId: string, toolCallId: string): SessionRecord | undefined {
  if (!parts.copilot.linkOf(wireId, agentId)) parts.copilot.link(wireId, agentId, toolCallId);
  const owner = parts.tree.toolOwner(wireId, toolCallId) ?? wireId;
  if (!parts.core.session(owner)?.toolCalls[toolCallId]) return undefined;
  const child = ensureVirtualChild(parts, owner, toolCallId, 'copilot-meta');
  const gathered = parts.core.session(parts.tree.currentId(`${wireId}#${unlinkedAgentKey(agentId)}`));
  if (gathered && gathered.id !== child.id) parts.tree.mergeVirtualChild(gathered, child);
  return child;
}

export function applyCopilotEvent(parts: StoreParts, event: CopilotEvent): void {
  switch (event.type) {
    case 'subagent.started':
      linkCopilotAgent(parts, event.sessionId, event.agentId, event.toolCallId);
      return;
    case 'subagent.completed':
    case 'subagent.failed': {
      const toolCallId = event.toolCallId ?? parts.copilot.linkOf(event.sessionId, event.agentId);
      const child = toolCallId ? linkCopilotAgent(parts, event.sessionId, event.agentId, toolCallId) : undefined;
      if (!child) return;
      const failed = event.type === 'subagent.failed';
      const stopReason = failed ? 'error' : event.cancelled ? 'cancelled' : 'end_turn';
      parts.core.setState(child, { state: 'idle', stopReason, ...(failed && event.error ? { error: { message: event.error } } : {}) }, 'agent');
      noteUsage(parts, child, event.usage);
      return;
    }
    case 'assistant.message_start': {
      // The next unmarked chunk of that speaker starts a new message instead of running on from the last one.
      const speaker = copilotSpeaker(parts, event.sessionId, event.agentId);
      if (speaker) parts.core.indexOf(speaker).lastDiscrete = true;
      return;
    }
    case 'assistant.usage': {
      const speaker = copilotSpeaker(parts, event.sessionId, event.agentId);
      if (speaker) noteUsage(parts, speaker, event.usage);
      return;
    }
    case 'assistant.message_delta':
      parts.copilot.queueText(event.sessionId, event.text, event.agentId);
      return;
  }
}

/** The session an event is about: the subagent with this agentId (once its task is known), or the main agent. */
function copilotSpeaker(parts: StoreParts, sessionId: string, agentId: string | undefined): SessionRecord | undefined {
  if (!agentId) return parts.core.session(sessionId);
  const task = copilotTaskOf(parts, sessionId, agentId);
  return task ? linkCopilotAgent(parts, sessionId, agentId, task) : undefined;
}

/** An unmarked text chunk on the parent: the subagent whose announced delta it matches, if any. */
export function copilotTextOwner(parts: StoreParts, wire: SessionRecord, text: string): SessionRecord | undefined {
  const match = parts.copilot.takeText(wire.id, text);
  if (!match?.agentId) return undefined;
  const task = copilotTaskOf(parts, wire.id, match.agentId);
  return task ? linkCopilotAgent(parts, wire.id, match.agentId, task) : undefined;
}
