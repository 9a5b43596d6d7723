// What Subchats tells the user of subagents outside their chats (#24 item 4), decided from a store's change
// stream. No vscode import: the host's notifier (subagentEndsNotifier.ts) shows what this returns.
//
// - A background subagent ended: it worked in the background, and the agent reported its end (its own report,
//   the call that launched it, or opencode's turn that says its job ended). Silence, long quiet and a disconnect
//   are never an end: a child whose end is never reported is never announced as done.
// - A subagent needs the user: it went into requires_action on its own report. A permission or elicitation
//   request already asks with its own notice (naming the subagent and its parent), so that is not said twice.
// Neither is said while a visible chat shows the subagent (its own chat, or an ancestor's that shows its card).
// The session labels are agent text: inert in the message.
import type { SessionView, StoreChange } from '../store/model';
import type { StateSource } from '../protocol/transcript';
import { isWorking, presentState, t } from '../presentation';
import { inertUiText } from './uiText';

export interface SubagentNotice {
  readonly kind: 'ended' | 'needs-you';
  readonly sessionId: string;
  readonly message: string;
}

interface EndsReader {
  getSession(sessionId: string): SessionView | undefined;
  listSessions(): Iterable<SessionView>;
}

/** What was last seen of a session: the facts whose change is announced. */
interface Seen {
  readonly inBackground: boolean;
  readonly asksOnItsOwn: boolean;
}

/** Who may end a background subagent: the agent, the call that launched it, a turn that reports it (opencode). */
const REPORTED_ENDS: ReadonlySet<StateSource> = new Set<StateSource>(['agent', 'tool-call', 'turn']);

const MAX_LABEL = 80;

export class SubagentEnds {
  private readonly seen = new Map<string, Seen>();

  /** Starts from what the store holds now: nothing in it is announced. */
  constructor(private readonly store: EndsReader) {
    for (const session of store.listSessions()) this.seen.set(session.id, seenOf(session));
  }

  /** The notices one batch of store changes calls for; `visible` says whether a visible chat shows a session. */
  note(changes: readonly StoreChange[], visible: (sessionId: string) => boolean): SubagentNotice[] {
    const notices: SubagentNotice[] = [];
    // Any change to a session re-reads its facts (two reads of a set of booleans per session and batch).
    for (const id of new Set(changes.map((change) => change.sessionId))) {
      const session = this.store.getSession(id);
      if (!session) {
        this.seen.delete(id);
        continue;
      }
      const before = this.seen.get(id);
      const now = seenOf(session);
      this.seen.set(id, now);
      const notice = this.noticeOf(session, before, now);
      if (notice && !visible(id)) notices.push(notice);
    }
    return notices;
  }

  private noticeOf(session: SessionView, before: Seen | undefined, now: Seen): SubagentNotice | undefined {
    if (session.parentId === null) return undefined;
    const child = quoted(session.label);
    const parent = quoted(this.store.getSession(session.parentId)?.label ?? t('its parent'));
    if (before?.inBackground && !now.inBackground && reportedEnd(session)) {
      return { kind: 'ended', sessionId: session.id, message: t('{0} (under {1}) finished: {2}', child, parent, presentState(session.state).label) };
    }
    if (!before?.asksOnItsOwn && now.asksOnItsOwn) return { kind: 'needs-you', sessionId: session.id, message: t('{0} under {1} needs you', child, parent) };
    return undefined;
  }
}

function seenOf(session: SessionView): Seen {
  return {
    inBackground: session.background && isWorking(session.state),
    asksOnItsOwn: session.state.state === 'requires_action' && session.awaitingUser === 0,
  };
}

/** Idle on a report (not the client's word: a disconnect, a cancel not acted on). */
function reportedEnd(session: SessionView): boolean {
  const source = session.stateHistory.at(-1)?.source;
  return session.state.state === 'idle' && source !== undefined && REPORTED_ENDS.has(source);
}

function quoted(label: string): string {
  return `“${inertUiText(label, MAX_LABEL)}”`;
}
