// A chat as plain text, to read in an editor with a screen reader or the keyboard (the role VS Code's Accessible
// View plays for its own chat): who said what, tool calls with their status, plans, questions and answers, and
// each subagent's chat after its parent's, named by its path. Agent text stays text (controls and bidi overrides
// made visible); nothing here becomes markup. Pure.
import type { Entry, SessionStateInfo, ToolCallRecord } from '../protocol/transcript';
import { permissionAnswer } from './permission';
import { planSummary } from './plan';
import { t } from './l10n';
import { plainText } from './plainText';
import { presentState, type StateExtras } from './sessionState';
import { presentToolStatus } from './toolCall';
import { preOrder } from './treeOrder';

/** What the text needs of a session (the store's SessionView fits); its state reads as in the tree. */
export interface ChatTextSession extends StateExtras {
  readonly id: string;
  readonly label: string;
  readonly state: SessionStateInfo;
  readonly childIds: readonly string[];
  readonly entries: readonly Entry[];
  readonly toolCalls: Readonly<Record<string, ToolCallRecord>>;
}

const PLAN_MARKS: Readonly<Record<string, string>> = { completed: '[x]', in_progress: '[~]' };

/** The chat of `rootId` and its subagents' chats, as text. */
export function chatText(rootId: string, lookup: (id: string) => ChatTextSession | undefined): string {
  const sessions = preOrder([rootId], lookup, (session) => session.childIds);
  const path = (session: ChatTextSession): string => {
    const names: string[] = [];
    for (let s: ChatTextSession | undefined = session; s; s = parentOf(s.id)) names.unshift(plainText(s.label));
    return names.join(' › ');
  };
  const parents = new Map(sessions.flatMap((s) => s.childIds.map((child) => [child, s] as const)));
  const parentOf = (id: string): ChatTextSession | undefined => (id === rootId ? undefined : parents.get(id));
  return sessions
    .map((session) => {
      const state = presentState(session.state, session).label;
      const heading = session.id === rootId ? t('Chat: {0} ({1})', path(session), state) : t('Subagent: {0} ({1})', path(session), state);
      const body = session.entries.map((entry) => entryText(entry, session, lookup)).filter((text) => text !== '');
      return [heading, '='.repeat(Math.min(heading.length, 80)), '', ...(body.length > 0 ? body : [t('No messages yet.'), ''])].join('\n');
    })
    .join('\n');
}

function entryText(entry: Entry, session: ChatTextSession, lookup: (id: string) => ChatTextSession | undefined): string {
  switch (entry.kind) {
    case 'message': {
      const who = entry.role === 'user' ? t('You') : entry.role === 'thought' ? t('Agent (thinking)') : t('Agent');
      return `${who}:\n${indent(plainText(entry.text))}\n`;
    }
    case 'toolCall': {
      const call = session.toolCalls[entry.toolCallId];
      if (!call) return `${t('Tool call')}\n`;
      const where = call.locations.map((location) => (typeof location.line === 'number' ? `${location.path}:${location.line}` : location.path));
      return `${t('Tool call: {0} ({1})', plainText(call.title || call.name || t('Tool call')), presentToolStatus(call).label)}${where.length > 0 ? `\n${indent(plainText(where.join('\n')))}` : ''}\n`;
    }
    case 'plan': {
      const steps = entry.removed === true ? [] : entry.entries.map((step) => `${PLAN_MARKS[step.status ?? ''] ?? '[ ]'} ${plainText(step.content)}`);
      return `${planSummary(entry)}${steps.length > 0 ? `\n${indent(steps.join('\n'))}` : ''}\n`;
    }
    case 'permission':
      return `${t('Permission requested: {0} ({1})', plainText(entry.title), permissionAnswer(entry))}\n`;
    case 'notice':
      return `${t('Notice ({0}): {1}', plainText(entry.severity), plainText(entry.title))}${entry.description ? `\n${indent(plainText(entry.description))}` : ''}\n`;
    case 'elicitation':
      const asks = entry.outcome === 'pending' ? t('The agent asks: {0} (waiting for an answer)', plainText(entry.message)) : t('The agent asks: {0} (answer: {1})', plainText(entry.message), entry.outcome);
      return `${asks}\n`;
    case 'sessionMessage': {
      const name = (id: string | undefined): string => (id === undefined ? t('unknown') : id === session.id ? t('this session') : plainText(lookup(id)?.label ?? t('another session')));
      return `${t('Message from {0} to {1}:', name(entry.senderSessionId), name(entry.recipientSessionId))}\n${indent(plainText(entry.text))}\n`;
    }
    case 'child': {
      const child = lookup(entry.childSessionId);
      return child ? `${t("Started subagent {0} (its chat follows its parent's)", plainText(child.label))}\n` : '';
    }
    default:
      return '';
  }
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? '' : `  ${line}`))
    .join('\n');
}
