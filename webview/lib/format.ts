// Plain-text helpers shared by components: one-line summaries and where child cards go. States, tool
// statuses, names and durations come from the shared presentation (src/presentation), as in the tree.
import type { Entry, ToolCallRecord } from '../../src/protocol/transcript';
import { permissionAnswer, planSummary, presentToolStatus, t } from '../../src/presentation';
import type { ChatSessionView } from '../state/mirror';

function firstLine(text: string, max = 160): string {
  const line = text.trim().split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** One line describing an entry, for child-card previews and the "latest activity" line. */
export function entrySummary(entry: Entry, toolCalls: Readonly<Record<string, ToolCallRecord>>): string {
  switch (entry.kind) {
    case 'message':
      if (entry.role === 'user') return t('User: {0}', firstLine(entry.text));
      return entry.role === 'thought' ? t('Thinking: {0}', firstLine(entry.text)) : t('Agent: {0}', firstLine(entry.text));
    case 'toolCall': {
      const toolCall = toolCalls[entry.toolCallId];
      return toolCall ? t('{0} ({1})', toolCall.title || toolCall.name || t('Tool call'), presentToolStatus(toolCall).label) : t('Tool call');
    }
    case 'plan':
      return planSummary(entry);
    case 'sessionMessage':
      return t('Message: {0}', firstLine(entry.text));
    case 'child':
      return t('Started a subagent');
    case 'permission':
      return t('Permission: {0} ({1})', firstLine(entry.title), permissionAnswer(entry));
    case 'notice':
      return noticeSummary(entry.severity, firstLine(entry.title));
    case 'elicitation':
      return t('Question: {0}', firstLine(entry.message));
    default:
      return '';
  }
}

/** A notice in one line, led by how serious it is; a severity the chat does not know stays as the agent named it. */
function noticeSummary(severity: string, title: string): string {
  if (severity === 'error') return t('error: {0}', title);
  if (severity === 'warning') return t('warning: {0}', title);
  if (severity === 'info') return t('info: {0}', title);
  return `${severity}: ${title}`;
}

/** What an entry is, for its article in the transcript: who speaks for a message, else its one-line summary. */
export function entryLabel(entry: Entry, toolCalls: Readonly<Record<string, ToolCallRecord>>): string {
  if (entry.kind !== 'message') return entrySummary(entry, toolCalls);
  return entry.role === 'user' ? t('You') : entry.role === 'thought' ? t('Thinking') : t('Agent');
}

export function latestActivity(view: ChatSessionView): string {
  const last = view.entries.at(-1);
  return last ? entrySummary(last, view.toolCalls) : t('No activity yet');
}

/** Where each child's card goes: its ChildEntry, else the subagent tool call naming it. */
export function cardAnchors(view: ChatSessionView): ReadonlyMap<string, string> {
  const cached = anchorCache.get(view.entries);
  if (cached && cached.toolCalls === view.toolCalls) return cached.anchors;
  const anchors = new Map<string, string>();
  // The child's own entry marks where it first showed up on the wire; its launch call hosts the card only
  // until then (e.g. qwen asks permission to launch between the two).
  for (const entry of view.entries) {
    if (entry.kind === 'child' && !anchors.has(entry.childSessionId)) anchors.set(entry.childSessionId, entry.id);
  }
  for (const entry of view.entries) {
    const childId = entry.kind === 'toolCall' ? view.toolCalls[entry.toolCallId]?.childSessionId : undefined;
    if (childId !== undefined && !anchors.has(childId)) anchors.set(childId, entry.id);
  }
  anchorCache.set(view.entries, { toolCalls: view.toolCalls, anchors });
  return anchors;
}

const anchorCache = new WeakMap<
  readonly Entry[],
  { toolCalls: Readonly<Record<string, ToolCallRecord>>; anchors: Map<string, string> }
>();
