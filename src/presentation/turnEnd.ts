// What a screen reader hears when a chat's turn ends, as VS Code's own chat reads a finished response: the
// answer's words, once, not every streamed chunk. Said only on the change from working to not working that the
// chat saw happen (opening a finished chat says nothing). Pure.
import type { Entry, SessionStateInfo } from '../protocol/transcript';
import { t } from './l10n';
import { isWorking, presentState, type PresentableState } from './sessionState';

/** Longer answers are cut here: the rest is in the transcript (and in the chat's plain-text view). */
const MAX_SPOKEN = 1500;

/**
 * The announcement for a turn that ended between `before` and `after` (undefined when none ended, or when it
 * failed with a message): the agent's words since the user's last message, or how the turn ended when there are none.
 */
export function turnEndAnnouncement(before: PresentableState | undefined, after: Pick<SessionStateInfo, 'state' | 'stopReason' | 'error'>, entries: readonly Entry[]): string | undefined {
  if (!before || !isWorking(before) || isWorking(after)) return undefined;
  // A failure's message is an alert of the chat's header already.
  if (after.error?.message) return undefined;
  const answer = speakable(lastAnswer(entries));
  const how = presentState(after).label;
  if (answer === '') return t("The agent's turn ended: {0}.", how);
  return after.stopReason === 'end_turn' ? t('Agent: {0}', answer) : t('Agent ({0}): {1}', how, answer);
}

/** The agent's messages after the user's last one. */
function lastAnswer(entries: readonly Entry[]): string {
  const parts: string[] = [];
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry.kind !== 'message') continue;
    if (entry.role === 'user') break;
    if (entry.role === 'agent') parts.unshift(entry.text);
  }
  return parts.join('\n\n');
}

/** Markdown read aloud: no fence lines, link targets or emphasis marks; bounded. */
function speakable(markdown: string): string {
  const text = markdown
    .replace(/^\s*(```|~~~).*$/gm, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|`)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > MAX_SPOKEN ? `${text.slice(0, MAX_SPOKEN - 1)}…` : text;
}
