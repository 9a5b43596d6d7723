// What the Subchats status bar item says (no vscode, so it is unit-tested in Node): how many sessions work, how
// many subagents work in the background, and how many questions (permissions, elicitations) wait for the user,
// across every live agent connection. It counts the rows: a session counts as working or waiting exactly when its
// tree row reads so at the same moment (presentRow), so a row that reads "Idle (quiet)" is never among the
// "working". A background subagent is counted apart from foreground turns, until its end is reported.
import { BACKGROUND_QUIET_MS, t } from '../presentation';
import { presentRow } from './sessionTreeModel';
import type { SessionTreeWatch, WatchedRuntime } from './sessionTreeWatch';

export interface StatusSummary {
  /** Sessions whose row reads working in the foreground (running, agent started, cancelling). */
  readonly working: number;
  /** Questions waiting for the user; a row that reads "Needs you" with no question open counts once. */
  readonly waiting: number;
  /** Subagents at work in the background (their launch call returned, their end not reported). */
  readonly background: number;
  /** Status bar text with codicons; empty when nothing works or waits (the item hides). */
  readonly text: string;
  readonly tooltip: string;
}

export function statusSummary(runtimes: readonly WatchedRuntime[], watch: SessionTreeWatch, now: number): StatusSummary {
  let working = 0;
  let background = 0;
  let quiet = 0;
  for (const { session } of watch.liveSessions('working', runtimes)) {
    if (presentRow(session, now).activity !== 'working') continue;
    if (!session.background) working++;
    else {
      background++;
      if (now - session.updatedAt >= BACKGROUND_QUIET_MS) quiet++;
    }
  }
  let waiting = 0;
  for (const { session } of watch.liveSessions('waiting', runtimes)) if (presentRow(session, now).activity === 'waiting') waiting += Math.max(session.awaitingUser, 1);
  const parts: string[] = [];
  if (waiting > 0) parts.push(`$(bell-dot) ${t('{0} waiting', waiting)}`);
  if (working > 0) parts.push(`$(sync~spin) ${t('{0} working', working)}`);
  if (background > 0) parts.push(`$(watch) ${t('{0} in background', background)}`);
  const unreported = quiet === 0 ? '' : quiet === background ? ` ${t('(no end reported)')}` : ` ${t('(no end reported for {0})', quiet)}`;
  const tooltip = [
    waiting === 0 ? '' : waiting === 1 ? t('1 question waiting for you (click to answer)') : t('{0} questions waiting for you (click to answer)', waiting),
    working === 0 ? '' : working === 1 ? t('1 session working') : t('{0} sessions working', working),
    background === 0 ? '' : `${background === 1 ? t('1 subagent working in the background') : t('{0} subagents working in the background', background)}${unreported}`,
  ]
    .filter(Boolean)
    .join('\n');
  return { working, waiting, background, text: parts.join('  '), tooltip: tooltip ? t('Subchats: {0}', tooltip) : t('Subchats') };
}
