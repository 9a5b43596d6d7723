// The one human name of a session, shown by the tree, the chat, the API and `subchats replay`.
// Never an id: the agent's title, else what the subagent is for (description, type, its parent tool call's
// title), else for roots the first line of the first prompt, else "Session N".
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
  return `Session ${session.ordinal}`;
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
