// Work that goes on in the background after a turn ended: a turn is never said to be done alone while a
// background subagent the agent reported still runs ("Done; 2 subagents still running in the background").
// One rule for the session tree and the chat header. Pure; depends only on src/protocol.
import type { SessionStateInfo } from '../protocol/transcript';
import { isWorking, type PresentedState } from './sessionState';
import { t } from './l10n';

/** The parts of a session the count reads (the store's SessionView fits). */
export interface BackgroundFacts {
  readonly background: boolean;
  readonly state: Pick<SessionStateInfo, 'state'>;
  readonly childIds: readonly string[];
}

/**
 * A descendant at work in the background: launched, its end not reported (subtreeSummary counts them).
 * A child that went quiet without an end stays counted: silence ends nothing.
 */
export function runsInBackground(session: BackgroundFacts): boolean {
  return session.background && isWorking(session.state);
}

/** A session whose turn ended (it reads idle) while `running` subagents still work in the background: said so. */
export function withBackgroundWork(presented: PresentedState, running: number): PresentedState {
  if (running <= 0 || presented.activity !== 'idle') return presented;
  const stillRunning = running === 1 ? t('1 subagent still running in the background') : t('{0} subagents still running in the background', running);
  return { ...presented, label: t('{0}; {1}', presented.label, stillRunning) };
}
