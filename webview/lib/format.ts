// Plain-text helpers shared by components: names, states, icons, durations, one-line summaries.
import type { Entry, ToolCallRecord } from '../../src/store/model';
import type { ChatAncestor, ChatSessionHeader } from '../../src/protocol/webviewMessages';
import type { SessionView } from '../state/chatStore';

/** Looks up an agent-supplied key in a constant table; inherited names like "constructor" are not entries. */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

type Named = Pick<ChatSessionHeader, 'id' | 'title' | 'description' | 'subagentType'> | ChatAncestor;

/** Title, then description, then subagent type, then a short id. */
export function sessionName(session: Named): string {
  const pick = [session.title, session.description, session.subagentType].find(
    (value): value is string => typeof value === 'string' && value.trim() !== '',
  );
  return pick?.trim() ?? `Session ${session.id.slice(0, 8)}`;
}

const STATE_LABELS: Record<string, string> = {
  running: 'Running',
  idle: 'Idle',
  requires_action: 'Needs action',
  unknown: 'Unknown',
  unconfirmed: 'Not reported',
  disconnected: 'Disconnected',
};

export function stateLabel(header: Pick<ChatSessionHeader, 'state'>): string {
  const { state, stopReason } = header.state;
  const label = ownEntry(STATE_LABELS, state) ?? state;
  if (state === 'idle' && stopReason && stopReason !== 'end_turn') return `${label} (${stopReason.replace(/_/g, ' ')})`;
  return label;
}

export function stateIcon(state: string): string {
  switch (state) {
    case 'running':
      return 'loading codicon-modifier-spin';
    case 'idle':
      return 'pass';
    case 'requires_action':
      return 'bell-dot';
    case 'disconnected':
      return 'debug-disconnect';
    case 'unknown':
    case 'unconfirmed':
      return 'question';
    default:
      return 'circle-outline';
  }
}

const KIND_ICONS: Record<string, string> = {
  read: 'file',
  edit: 'edit',
  delete: 'trash',
  move: 'arrow-swap',
  search: 'search',
  execute: 'terminal',
  think: 'lightbulb',
  fetch: 'globe',
  switch_mode: 'symbol-enum',
  subagent: 'hubot',
};

export function toolKindIcon(kind: string): string {
  return ownEntry(KIND_ICONS, kind) ?? 'tools';
}

export function toolStatusIcon(status: string): string {
  switch (status) {
    case 'pending':
      return 'circle-outline';
    case 'in_progress':
      return 'loading codicon-modifier-spin';
    case 'completed':
      return 'check';
    case 'failed':
      return 'error';
    case 'cancelled':
      return 'circle-slash';
    case 'paused':
      return 'debug-pause';
    default:
      return 'circle-outline';
  }
}

export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${seconds % 60}s`;
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

/** Time the session has been working: until now while running, else until its last state change. */
export function elapsedMs(header: ChatSessionHeader, now: number): number {
  const end = header.state.state === 'running' ? now : (header.stateHistory.at(-1)?.at ?? header.updatedAt);
  return Math.max(0, end - header.createdAt);
}

function firstLine(text: string, max = 160): string {
  const line = text.trim().split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** One line describing an entry, for child-card previews and the "latest activity" line. */
export function entrySummary(entry: Entry, toolCalls: Readonly<Record<string, ToolCallRecord>>): string {
  switch (entry.kind) {
    case 'message':
      return `${entry.role === 'user' ? 'User' : entry.role === 'thought' ? 'Thinking' : 'Agent'}: ${firstLine(entry.text)}`;
    case 'toolCall': {
      const toolCall = toolCalls[entry.toolCallId];
      return toolCall ? `${toolCall.title || toolCall.name || 'Tool call'} (${toolCall.status.replace(/_/g, ' ')})` : 'Tool call';
    }
    case 'plan':
      return `Plan: ${entry.entries.filter((e) => e.status === 'completed').length}/${entry.entries.length} done`;
    case 'sessionMessage':
      return `Message: ${firstLine(entry.text)}`;
    case 'child':
      return 'Started a subagent';
    case 'permission':
      return `Permission: ${firstLine(entry.title)} (${entry.outcome})`;
    case 'notice':
      return `${entry.severity}: ${firstLine(entry.title)}`;
    case 'elicitation':
      return `Question: ${firstLine(entry.message)}`;
    default:
      return '';
  }
}

export function latestActivity(view: SessionView): string {
  const last = view.entries.at(-1);
  return last ? entrySummary(last, view.toolCalls) : 'No activity yet';
}

/** Where each child's card goes: the first ChildEntry or subagent tool call naming it. */
export function cardAnchors(view: SessionView): ReadonlyMap<string, string> {
  const cached = anchorCache.get(view.entries);
  if (cached && cached.toolCalls === view.toolCalls) return cached.anchors;
  const anchors = new Map<string, string>();
  for (const entry of view.entries) {
    const childId =
      entry.kind === 'child' ? entry.childSessionId : entry.kind === 'toolCall' ? view.toolCalls[entry.toolCallId]?.childSessionId : undefined;
    if (childId !== undefined && !anchors.has(childId)) anchors.set(childId, entry.id);
  }
  anchorCache.set(view.entries, { toolCalls: view.toolCalls, anchors });
  return anchors;
}

const anchorCache = new WeakMap<
  readonly Entry[],
  { toolCalls: Readonly<Record<string, ToolCallRecord>>; anchors: Map<string, string> }
>();
