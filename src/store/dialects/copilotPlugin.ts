// The GitHub Copilot CLI dialect plug-in: which `task` call each agentId belongs to, the text its events
// attribute, and its end. On from its first `github.com/copilot/sessionEvent`, agentId tag or `task` launch;
// only then is an unmarked text chunk matched against the deltas its events announced. See copilot.ts
// for the wire shapes.
import { COPILOT_EVENT_METHOD, COPILOT_META_KEY, readCopilotEvent, type CopilotEvent } from './copilot';
import type { SessionRecord } from '../model';
import { ensureVirtualChild } from '../reducers/toolCalls';
import { noteUsage } from '../reducers/usage';
import { isToolCallOpen } from '../stateRules';
import type { ReducerContext } from '../reducerContext';
import { unlinkedAgentKey, type UpdateOwner } from '../updateOwner';
import { isObject, type JsonObject } from '../wireMessage';
import { t } from '../../presentation/l10n';
import type { Dialect, DialectHost } from './dialect';

/** What the store remembers about Copilot subagents, per wire session. */
class CopilotState {
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
function copilotTaskOf(parts: ReducerContext, copilot: CopilotState, wireId: string, agentId: string): string | undefined {
  const known = copilot.linkOf(wireId, agentId);
  if (known) return known;
  const open = copilot.tasksOf(wireId).filter((toolCallId) => {
    const owner = parts.tree.toolOwner(wireId, toolCallId);
    const call = owner ? parts.core.session(owner)?.toolCalls[toolCallId] : undefined;
    return call !== undefined && isToolCallOpen(call.status) && !copilot.isLinkedTask(wireId, toolCallId);
  });
  return open.length === 1 ? open[0] : undefined;
}

/** The agent's updates went to its task's child: remember the link, and fold in what gathered before it was known. */
function linkCopilotAgent(parts: ReducerContext, copilot: CopilotState, wireId: string, agentId: string, toolCallId: string): SessionRecord | undefined {
  if (!copilot.linkOf(wireId, agentId)) copilot.link(wireId, agentId, toolCallId);
  const owner = parts.tree.toolOwner(wireId, toolCallId) ?? wireId;
  if (!parts.core.session(owner)?.toolCalls[toolCallId]) return undefined;
  const child = ensureVirtualChild(parts, owner, toolCallId, 'copilot-meta');
  const gathered = parts.core.session(parts.tree.currentId(`${wireId}#${unlinkedAgentKey(agentId)}`));
  if (gathered && gathered.id !== child.id) parts.tree.mergeVirtualChild(gathered, child);
  return child;
}

function applyCopilotEvent(parts: ReducerContext, copilot: CopilotState, event: CopilotEvent): void {
  switch (event.type) {
    case 'subagent.started':
      linkCopilotAgent(parts, copilot, event.sessionId, event.agentId, event.toolCallId);
      return;
    case 'subagent.completed':
    case 'subagent.failed': {
      const toolCallId = event.toolCallId ?? copilot.linkOf(event.sessionId, event.agentId);
      const child = toolCallId ? linkCopilotAgent(parts, copilot, event.sessionId, event.agentId, toolCallId) : undefined;
      if (!child) return;
      const failed = event.type === 'subagent.failed';
      const stopReason = failed ? 'error' : event.cancelled ? 'cancelled' : 'end_turn';
      parts.core.setState(child, { state: 'idle', stopReason, ...(failed && event.error ? { error: { message: event.error } } : {}) }, 'agent');
      noteUsage(parts, child, event.usage);
      return;
    }
    case 'assistant.message_start': {
      // The next unmarked chunk of that speaker starts a new message instead of running on from the last one.
      const speaker = copilotSpeaker(parts, copilot, event.sessionId, event.agentId);
      if (speaker) parts.core.indexOf(speaker).lastDiscrete = true;
      return;
    }
    case 'assistant.usage': {
      const speaker = copilotSpeaker(parts, copilot, event.sessionId, event.agentId);
      if (speaker) noteUsage(parts, speaker, event.usage);
      return;
    }
    case 'assistant.message_delta':
      copilot.queueText(event.sessionId, event.text, event.agentId);
      return;
  }
}

/** The session an event is about: the subagent with this agentId (once its task is known), or the main agent. */
function copilotSpeaker(parts: ReducerContext, copilot: CopilotState, sessionId: string, agentId: string | undefined): SessionRecord | undefined {
  if (!agentId) return parts.core.session(sessionId);
  const task = copilotTaskOf(parts, copilot, sessionId, agentId);
  return task ? linkCopilotAgent(parts, copilot, sessionId, agentId, task) : undefined;
}

/** An unmarked text chunk on the parent: the subagent whose announced delta it matches, if any. */
function copilotTextOwner(parts: ReducerContext, copilot: CopilotState, wire: SessionRecord, text: string): SessionRecord | undefined {
  const match = copilot.takeText(wire.id, text);
  if (!match?.agentId) return undefined;
  const task = copilotTaskOf(parts, copilot, wire.id, match.agentId);
  return task ? linkCopilotAgent(parts, copilot, wire.id, match.agentId, task) : undefined;
}

/** Where Copilot puts an update the resolver decided on: its tagged agents' rows, and its unmarked text by the events. */
function ownerOf(parts: ReducerContext, copilot: CopilotState, wire: SessionRecord, update: JsonObject, kind: string, owner: UpdateOwner): SessionRecord | undefined {
  if (owner.kind === 'session') {
    // Unmarked text on the wire session itself: its events may say which subagent wrote it.
    if ((parts.core.session(owner.sessionId) ?? wire) !== wire || (kind !== 'agent_message_chunk' && kind !== 'agent_thought_chunk')) return undefined;
    const content = isObject(update['content']) ? update['content'] : undefined;
    return typeof content?.['text'] === 'string' ? copilotTextOwner(parts, copilot, wire, content['text']) : undefined;
  }
  if (!owner.copilotAgentId) return undefined;
  if (!owner.unlinked) return linkCopilotAgent(parts, copilot, wire.id, owner.copilotAgentId, owner.toolCallId) ?? wire;
  const gathering = ensureVirtualChild(parts, owner.parentId, owner.toolCallId, owner.link);
  gathering.title ??= t('Copilot subagent (its task is not known yet)');
  return gathering;
}

export function copilotDialect({ parts }: DialectHost): Dialect {
  const copilot = new CopilotState();
  return {
    notifications: {
      [COPILOT_EVENT_METHOD]: (params) => {
        const event = readCopilotEvent(params);
        if (event) applyCopilotEvent(parts, copilot, event);
      },
    },
    metaKeys: [COPILOT_META_KEY],
    spawnLink: 'copilot-meta',
    noteSpawn: (wireId, toolCallId) => copilot.noteTask(wireId, toolCallId),
    lookups: { copilotTaskOf: (wireId, agentId) => copilotTaskOf(parts, copilot, wireId, agentId) },
    facts: { launchedCopilotTasks: (sessionId) => copilot.hasTasks(sessionId) },
    ownerOf: (wire, update, kind, owner) => ownerOf(parts, copilot, wire, update, kind, owner),
  };
}
