// What the Subchats status bar item says (no vscode, so it is unit-tested in Node): how many sessions work
// and how many questions (permissions, elicitations) wait for the user, across every live agent connection.
import { needsUser } from './sessionTreeModel';
import type { SessionTreeWatch, WatchedRuntime } from './sessionTreeWatch';

export interface StatusSummary {
  /** Sessions working and not waiting for the user. */
  readonly working: number;
  /** Questions waiting for the user; a session the agent says needs the user, with no question open, counts once. */
  readonly waiting: number;
  /** Status bar text with codicons; empty when nothing works or waits (the item hides). */
  readonly text: string;
  readonly tooltip: string;
}

export function statusSummary(runtimes: readonly WatchedRuntime[], watch: SessionTreeWatch): StatusSummary {
  let working = 0;
  for (const { session } of watch.liveSessions('working', runtimes)) if (!needsUser(session)) working++;
  let waiting = 0;
  for (const { session } of watch.liveSessions('waiting', runtimes)) waiting += Math.max(session.awaitingUser, 1);
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
