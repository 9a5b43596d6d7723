// What the Subchats status bar item says (no vscode, so it is unit-tested in Node): how many sessions work
// and how many questions (permissions, elicitations) wait for the user, across every live agent connection.
// It counts the rows: a session counts as working or waiting exactly when its tree row reads so at the same
// moment (presentRow), so a row that reads "Idle (quiet)" is never among the "working".
import { presentRow } from './sessionTreeModel';
import type { SessionTreeWatch, WatchedRuntime } from './sessionTreeWatch';

export interface StatusSummary {
  /** Sessions whose row reads working (running, in the background, agent started, cancelling). */
  readonly working: number;
  /** Questions waiting for the user; a row that reads "Needs you" with no question open counts once. */
  readonly waiting: number;
  /** Status bar text with codicons; empty when nothing works or waits (the item hides). */
  readonly text: string;
  readonly tooltip: string;
}

export function statusSummary(runtimes: readonly WatchedRuntime[], watch: SessionTreeWatch, now: number): StatusSummary {
  let working = 0;
  for (const { session } of watch.liveSessions('working', runtimes)) if (presentRow(session, now).activity === 'working') working++;
  let waiting = 0;
  for (const { session } of watch.liveSessions('waiting', runtimes)) if (presentRow(session, now).activity === 'waiting') waiting += Math.max(session.awaitingUser, 1);
  const parts: string[] = [];
  if (waiting > 0) parts.push(`$(bell-dot) ${waiting} waiting`);
  if (working > 0) parts.push(`$(sync~spin) ${working} working`);
  const tooltip = [
    waiting > 0 ? `${waiting} question${waiting === 1 ? '' : 's'} waiting for you (click to answer)` : '',
    working > 0 ? `${working} session${working === 1 ? '' : 's'} working` : '',
  ]
    .filter(Boolean)
    .join('\n');
  return { working, waiting, text: parts.join('  '), tooltip: tooltip ? `Subchats: ${tooltip}` : 'Subchats' };
}
