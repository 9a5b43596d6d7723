// A running child that has been quiet for long, when its agent is known to keep the child's questions to
// itself: say so, and where to answer. Only words computed from timestamps; the state stays what was reported.
import { t } from './l10n';
import type { PresentableState } from './sessionState';

/** Quiet this long (ms) before the notice shows. A minute is longer than any step of a working child. */
export const LONG_QUIET_MS = 60_000;

export interface QuietFacts {
  readonly state: Pick<PresentableState, 'state'>;
  /** The last time anything arrived for the session. */
  readonly updatedAt: number;
  /** The agent that does not forward this subagent's questions (product name), or null. */
  readonly questionsNotForwardedBy: string | null;
  /** A background child: its quiet is said by its state ("No end reported"), not as a question it may hold. */
  readonly background?: boolean;
}

function quietFor(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return t('{0} min', minutes);
  return t('{0} h {1} min', Math.floor(minutes / 60), minutes % 60);
}

/** The notice, or undefined while the child is not running, not quiet for long, or its questions do arrive. */
export function longQuietNotice(facts: QuietFacts, now: number): string | undefined {
  const agent = facts.questionsNotForwardedBy;
  if (!agent || facts.state.state !== 'running' || facts.background) return undefined;
  const quiet = now - facts.updatedAt;
  if (!(quiet >= LONG_QUIET_MS)) return undefined;
  return t("No news for {0}. {1} does not forward a subagent's questions; if it is waiting on a permission, answer it in {1} itself.", quietFor(quiet), agent);
}
