// The one human name of a session, shown by the tree, the chat, the API and `subchats replay`.
// Never an id: the agent's title, else what the subagent is for (description, type, its parent tool call's
// title), else for roots the first line of the first prompt, else "Session N". Twins (siblings given the
// same name) are told apart by a number: see TwinLabels.
import { t } from '../presentation/l10n';
import type { SessionRecord, ToolCallRecord } from './model';

const MAX_LABEL = 80;

type Labelled = Pick<SessionRecord, 'title' | 'description' | 'subagentType' | 'ordinal' | 'parentId'>;

export function sessionLabel(session: Labelled, parentToolCall?: Pick<ToolCallRecord, 'title' | 'toolCallId'>, firstPrompt?: string): string {
  const callTitle = parentToolCall && parentToolCall.title !== parentToolCall.toolCallId ? parentToolCall.title : undefined;
  const candidates = session.parentId === null ? [session.title, firstPrompt] : [session.title, session.description, session.subagentType, callTitle];
  for (const candidate of candidates) {
    const line = firstLine(candidate);
    if (line) return line;
  }
  return t('Session {0}', session.ordinal);
}

/** The first non-blank line, cut to a label's length; reads only as far as it needs (prompts can be huge). */
function firstLine(text: string | null | undefined): string | undefined {
  if (typeof text !== 'string') return undefined;
  for (let start = 0; start < text.length; ) {
    const end = text.indexOf('\n', start);
    const stop = end < 0 ? text.length : end;
    const line = text.slice(start, Math.min(stop, start + 4 * MAX_LABEL)).trim();
    if (line !== '') return line.length > MAX_LABEL ? `${line.slice(0, MAX_LABEL - 1)}…` : line;
    start = stop + 1;
  }
  return undefined;
}

/**
 * Siblings under one parent with the same name get numbers in order of appearance: the first keeps the name,
 * later twins read "name (2)", "name (3)". A number stays as long as its session's name and parent do, so a
 * sibling that appears, goes away or is renamed never moves another one's label (views and replays agree).
 */
export class TwinLabels {
  private readonly twins = new Map<string, { readonly parentId: string; readonly name: string; readonly n: number }>();

  /** The label of a session named `name`; `siblingIds` are its parent's children (it may not be among them yet). */
  label(sessionId: string, parentId: string | null, name: string, siblingIds: readonly string[]): string {
    if (parentId === null) {
      this.twins.delete(sessionId);
      return name;
    }
    let twin = this.twins.get(sessionId);
    if (!twin || twin.parentId !== parentId || twin.name !== name) {
      let highest = 0;
      for (const id of siblingIds) {
        const other = id === sessionId ? undefined : this.twins.get(id);
        if (other && other.parentId === parentId && other.name === name) highest = Math.max(highest, other.n);
      }
      twin = { parentId, name, n: highest + 1 };
      this.twins.set(sessionId, twin);
    }
    return twin.n === 1 ? name : `${name} (${twin.n})`;
  }

  /** A record that takes another's place (a virtual child replaced by its real session) keeps its number. */
  inherit(fromId: string, toId: string): void {
    const twin = this.twins.get(fromId);
    if (twin) this.twins.set(toId, twin);
    this.twins.delete(fromId);
  }

  forget(sessionId: string): void {
    this.twins.delete(sessionId);
  }
}
