// What was reported about a session's state and when, in one short sentence for the tree's tooltip and the
// chat's state line: "Cancelled 12:01:03 with the parent's turn, then reported unknown 12:01:09".
import type { StateHistoryItem } from '../protocol/transcript';
import { t } from './l10n';
import { clockTime } from './time';
import { presentState } from './sessionState';

export interface ExplanationOptions {
  /** How many of the latest changes to tell (default 3). */
  readonly last?: number;
  /** Clock time of a timestamp; default HH:MM:SS local time. Tests pass a fixed one. */
  readonly formatTime?: (at: number) => string;
  /** The client asked the agent to cancel at this time and nothing changed since. */
  readonly cancelRequestedAt?: number | null;
}

type HistoryItem = Pick<StateHistoryItem, 'state' | 'stopReason' | 'at'> & { readonly source?: StateHistoryItem['source'] };

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** The state as a word inside a sentence ("done", "needs you", "idle (paused)"). */
function stateWord(item: HistoryItem): string {
  return lowerFirst(presentState(item).label);
}

/** What the client's own knowledge means in words (a sent prompt runs, a new session waits, the agent went away). */
function clientWord(item: HistoryItem, previous: HistoryItem | undefined): string {
  switch (item.state) {
    case 'running':
      // Back to work once the user answered what it asked.
      return previous?.state === 'requires_action' ? t('resumed') : t('started');
    case 'idle':
      return item.stopReason ? stateWord(item) : t('opened');
    case 'unconfirmed':
      return t('not reported yet');
    case 'disconnected':
      return t('disconnected');
    default:
      return stateWord(item);
  }
}

function phrase(item: HistoryItem, previous: HistoryItem | undefined, time: string): string {
  switch (item.source) {
    case 'agent':
      return t('reported {0} {1}', stateWord(item), time);
    case 'tool-call':
      return t('{0} {1} (from its tool call)', stateWord(item), time);
    case 'turn':
      return t("{0} {1} with the parent's turn", stateWord(item), time);
    case 'client':
      return `${clientWord(item, previous)} ${time}`;
    case 'agent-started':
      return t('started by the agent {0} (no prompt was in flight)', time);
    default:
      return `${stateWord(item)} ${time}`;
  }
}

/** The last few state changes with who said so and when, or '' when nothing is known. */
export function stateExplanation(history: readonly HistoryItem[], options: ExplanationOptions = {}): string {
  const formatTime = options.formatTime ?? ((at: number) => clockTime(at));
  const last = Math.max(1, options.last ?? 3);
  const start = Math.max(0, history.length - last);
  const parts = history.slice(start).map((item, i) => phrase(item, history[start + i - 1], formatTime(item.at)));
  const cancelAt = options.cancelRequestedAt;
  if (cancelAt != null && cancelAt >= (history.at(-1)?.at ?? Number.NEGATIVE_INFINITY)) parts.push(t('cancel requested {0}', formatTime(cancelAt)));
  if (parts.length === 0) return '';
  // One change after another: "A, then B, then C".
  const sentence = parts.reduce((earlier, later) => t('{0}, then {1}', earlier, later));
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}
