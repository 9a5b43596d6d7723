// Per-connection memory bounds: how many sessions and tool calls the store holds, and how much message text.
// An agent (hostile or runaway) can announce children and tool calls without end; past a bound the oldest
// finished detail leaves memory first, never a running session or tool call, never what waits for the user.
// The transcript recorder writes every wire message before the store sees it, so what is dropped here stays in
// the transcript and the history file. Cost: the check after each message is O(1); a trim brings a count to 90%
// of its bound, so its one pass over what is kept is paid back by the tenth of a bound that must come before
// the next trim (also when nothing could be dropped: it waits for that much more).
import type { Entry, SessionRecord, ToolCallRecord } from './model';
import { t } from '../presentation/l10n';
import { keepInPlace } from './inPlace';
import { isSessionFinished, isToolCallOpen } from './stateRules';
import type { ReducerContext } from './reducerContext';

export interface MemoryLimits {
  /** Sessions per connection (roots, children and virtual children). */
  readonly maxSessions: number;
  /** Tool calls per connection, over all its sessions. */
  readonly maxToolCalls: number;
  /** Characters of message text per connection, over all its sessions. */
  readonly maxTextChars: number;
  /**
   * Characters of message text held in memory per connection when the store has a vault: past it, the heads of
   * the oldest long agent messages go to the vault (textSpill.ts) and stay readable. Without a vault, unused.
   */
  readonly maxHeldTextChars: number;
}

/** Far above a heavy day's work (README "Security" says these numbers). */
export const DEFAULT_MEMORY_LIMITS: MemoryLimits = { maxSessions: 5_000, maxToolCalls: 20_000, maxTextChars: 32_000_000, maxHeldTextChars: 4_000_000 };

/** A trim stops at this share of the bound. */
const KEEP = 0.9;
/**
 * Past this multiple of a bound with nothing left to drop (everything runs or waits for the user), the agent is
 * stopped: it announces without end, and holding on would only end when the extension host runs out of memory.
 */
const OVERRUN_FACTOR = 2;

export class MemoryBounds {
  /** Per bound: while over it with nothing left to drop, the count at which to look again. */
  private readonly retryAt = { sessions: 0, toolCalls: 0, text: 0, held: 0 };
  private told: string | undefined;
  private overran: string | undefined;

  constructor(
    private readonly parts: ReducerContext,
    readonly limits: MemoryLimits,
  ) {}

  /** What the user is told (once per connection) when detail was first dropped. */
  get notice(): string | undefined {
    return this.told;
  }

  /** Why the agent must be stopped (set once): a bound passed OVERRUN_FACTOR times with nothing left to drop. */
  get overrun(): string | undefined {
    return this.overran;
  }

  /** After each message: O(1) unless a bound is passed. */
  enforce(): void {
    const { core, spill } = this.parts;
    const { maxSessions, maxToolCalls, maxTextChars, maxHeldTextChars } = this.limits;
    // Text goes to disk before anything is dropped: what moved there is still shown.
    if (spill && isOver(core.textChars, maxHeldTextChars, this.retryAt.held)) {
      core.textChars = heldText(core);
      spill.spillOldest(
        () => core.textChars <= maxHeldTextChars * KEEP,
        (chars) => (core.textChars -= chars),
      );
      this.retryAt.held = retryFrom(core.textChars, maxHeldTextChars);
    }
    const sessions = isOver(core.sessions.size, maxSessions, this.retryAt.sessions);
    const toolCalls = isOver(core.toolCallCount, maxToolCalls, this.retryAt.toolCalls);
    const text = isOver(core.textChars, maxTextChars, this.retryAt.text);
    if (!sessions && !toolCalls && !text) return;
    const trim = new Trim(this.parts);
    if (sessions) trim.dropSessions(() => core.sessions.size <= maxSessions * KEEP);
    if (toolCalls) trim.dropToolCalls(() => core.toolCallCount <= maxToolCalls * KEEP);
    if (text) {
      // Replaced text (v2 upserts) was counted when it came: the exact figure decides.
      core.textChars = heldText(core);
      if (core.textChars > maxTextChars) {
        const done = () => core.textChars <= maxTextChars * KEEP;
        trim.dropSessions(done);
        trim.dropMessages(done);
      }
    }
    trim.finish();
    this.retryAt.sessions = retryFrom(core.sessions.size, maxSessions);
    this.retryAt.toolCalls = retryFrom(core.toolCallCount, maxToolCalls);
    this.retryAt.text = retryFrom(core.textChars, maxTextChars);
    if (trim.dropped && this.told === undefined) {
      this.told = boundsNotice(this.limits);
      core.diagnose('bounded', this.told);
    }
    if (this.overran === undefined) {
      const kept = overrunOf([core.sessions.size, maxSessions, 'sessions'], [core.toolCallCount, maxToolCalls, 'toolCalls'], [core.textChars, maxTextChars, 'text']);
      if (kept !== undefined) {
        this.overran = kept;
        core.diagnose('overrun', kept);
      }
    }
  }
}

/** A count as the user reads it (5,000). */
const n = (value: number): string => value.toLocaleString('en-US');

/** What the user is told when the agent is stopped, for the first bound passed OVERRUN_FACTOR times. */
function overrunOf(...counts: readonly (readonly [count: number, max: number, what: keyof typeof OVERRUN])[]): string | undefined {
  for (const [count, max, what] of counts) {
    if (count <= max * OVERRUN_FACTOR) continue;
    return OVERRUN[what](n(count), OVERRUN_FACTOR, n(max));
  }
  return undefined;
}

/** The overrun sentence for each bound, whole (a translation may need to change more than the noun). */
const OVERRUN = {
  sessions: (count: string, factor: number, max: string) =>
    t('Subchats stopped this agent: it sent {0} sessions that must be kept (they are still running or wait for you), more than {1} times what Subchats holds per connection ({2}). What it sent is in the transcript and the history file; its sessions stay, shown disconnected.', count, factor, max),
  toolCalls: (count: string, factor: number, max: string) =>
    t('Subchats stopped this agent: it sent {0} tool calls that must be kept (they are still running or wait for you), more than {1} times what Subchats holds per connection ({2}). What it sent is in the transcript and the history file; its sessions stay, shown disconnected.', count, factor, max),
  text: (count: string, factor: number, max: string) =>
    t('Subchats stopped this agent: it sent {0} characters of message text that must be kept (they are still running or wait for you), more than {1} times what Subchats holds per connection ({2}). What it sent is in the transcript and the history file; its sessions stay, shown disconnected.', count, factor, max),
} as const;

function isOver(count: number, max: number, retryAt: number): boolean {
  return count > max && count >= retryAt;
}

/** Still above the trim's target: look again only after another tenth of the bound. */
function retryFrom(count: number, max: number): number {
  return count > max * KEEP ? count + Math.ceil(max * (1 - KEEP)) : 0;
}

function boundsNotice(limits: MemoryLimits): string {
  return t(
    'This agent went past what Subchats keeps in memory per connection ({0} sessions, {1} tool calls, {2} characters of message text): the oldest finished subagents, tool calls and messages are no longer shown. Running sessions and tool calls and questions for you are kept, and every message is still in the transcript and the history file.',
    n(limits.maxSessions),
    n(limits.maxToolCalls),
    n(limits.maxTextChars),
  );
}

/** The message text the records hold, counted exactly (replaced v2 text was counted when it came). */
function heldText(core: ReducerContext['core']): number {
  let chars = 0;
  for (const session of core.sessions.values()) chars += messageText(session.entries);
  return chars;
}

function messageText(entries: readonly Entry[]): number {
  let chars = 0;
  for (const entry of entries) if (entry.kind === 'message' || entry.kind === 'sessionMessage') chars += entry.text.length;
  return chars;
}

/** One trim: drops from the records at once, then compacts each list that named what went, once. */
class Trim {
  dropped = false;
  private readonly sessions = new Set<string>();
  /** Per session kept: the entries taken out, and the ids of the tool calls taken out. */
  private readonly entries = new Map<SessionRecord, Set<Entry>>();
  private readonly toolCalls = new Map<SessionRecord, Set<string>>();
  private readonly parents = new Set<string>();
  private rootsDropped = false;

  constructor(private readonly parts: ReducerContext) {}

  /** Oldest finished first: sessions nobody works in or waits on, with no child kept, that the user did not open. */
  dropSessions(done: () => boolean): void {
    const { core } = this.parts;
    for (const id of core.finishedSessions) {
      if (done()) return;
      const session = core.session(id);
      if (!session || !isSessionFinished(session.state)) {
        core.finishedSessions.delete(id);
        continue;
      }
      if (this.mayDropSession(session)) this.dropSession(session);
    }
  }

  /** Oldest finished first; a call whose subagent is still kept stays (the child names it). */
  dropToolCalls(done: () => boolean): void {
    const { core, tree } = this.parts;
    for (const [call, ownerId] of core.finishedToolCalls) {
      if (done()) return;
      const session = core.session(tree.currentId(ownerId));
      if (!session || session.toolCalls[call.toolCallId] !== call || isToolCallOpen(call.status)) {
        core.finishedToolCalls.delete(call);
        continue;
      }
      if (call.childSessionId !== undefined && core.sessions.has(tree.currentId(call.childSessionId))) continue;
      this.dropToolCall(session, call);
    }
  }

  /** The messages of finished sessions, oldest session first; a root's first prompt (its name) stays. */
  dropMessages(done: () => boolean): void {
    const { core } = this.parts;
    for (const id of core.finishedSessions) {
      const session = core.session(id);
      if (!session || session.awaitingUser > 0 || session.activePromptId !== null) continue;
      const index = core.indexOf(session);
      for (const entry of session.entries) {
        if (done()) return;
        if ((entry.kind !== 'message' && entry.kind !== 'sessionMessage') || entry === index.firstUserMessage) continue;
        const taken = this.entriesOf(session);
        if (taken.has(entry)) continue;
        taken.add(entry);
        core.textChars -= entry.text.length;
        if (entry.kind === 'message') this.parts.spill?.forget(entry);
        if (entry.kind === 'message' && entry.messageId !== undefined) index.messages.delete(`${entry.role}\0${entry.messageId}`);
        if (entry.kind === 'sessionMessage') index.sessionMessages.delete(entry.messageId);
        this.dropped = true;
      }
    }
  }

  /** Compacts the lists that named what was dropped and tells the views. */
  finish(): void {
    const { core, tree } = this.parts;
    for (const parentId of this.parents) {
      const parent = core.session(parentId);
      if (!parent) continue;
      keepInPlace(parent.childIds, (id) => !this.sessions.has(id));
      this.entriesOf(parent);
    }
    if (this.rootsDropped) tree.forgetRoots(this.sessions);
    for (const [session, taken] of this.entries) {
      const index = core.indexOf(session);
      keepInPlace(session.entries, (entry) => !taken.has(entry) && !(entry.kind === 'child' && this.sessions.has(entry.childSessionId)));
      if (index.last !== undefined && index.last !== session.entries.at(-1)) index.last = undefined;
      const calls = this.toolCalls.get(session);
      if (calls) keepInPlace(session.toolCallOrder, (id) => !calls.has(id));
      core.touch(session);
      core.changed({ sessionId: session.id, kind: 'entries' });
    }
  }

  private mayDropSession(session: SessionRecord): boolean {
    const { core, replaying } = this.parts;
    return (
      !session.openedByClient &&
      session.awaitingUser === 0 &&
      session.activePromptId === null &&
      session.queued.length === 0 &&
      !session.background &&
      !replaying.has(session.id) &&
      session.childIds.every((id) => !core.sessions.has(id))
    );
  }

  private dropSession(session: SessionRecord): void {
    const { core, tree } = this.parts;
    core.finishedSessions.delete(session.id);
    for (const id in session.toolCalls) {
      core.finishedToolCalls.delete(session.toolCalls[id]!);
      core.toolCallCount--;
    }
    core.textChars -= messageText(session.entries);
    for (const entry of session.entries) if (entry.kind === 'message') this.parts.spill?.forget(entry);
    tree.forgetSession(session);
    core.forget(session.id);
    this.entries.delete(session);
    this.sessions.add(session.id);
    if (session.parentId === null) this.rootsDropped = true;
    else this.parents.add(session.parentId);
    core.changed({ sessionId: session.id, kind: 'tree' });
    this.dropped = true;
  }

  private dropToolCall(session: SessionRecord, call: ToolCallRecord): void {
    const { core, tree } = this.parts;
    core.finishedToolCalls.delete(call);
    delete session.toolCalls[call.toolCallId];
    const index = core.indexOf(session);
    const entry = index.toolEntries.get(call.toolCallId);
    index.toolEntries.delete(call.toolCallId);
    if (entry) this.entriesOf(session).add(entry);
    let calls = this.toolCalls.get(session);
    if (!calls) this.toolCalls.set(session, (calls = new Set()));
    calls.add(call.toolCallId);
    tree.forgetToolCall(session, call.toolCallId);
    core.toolCallCount--;
    this.dropped = true;
  }

  private entriesOf(session: SessionRecord): Set<Entry> {
    let taken = this.entries.get(session);
    if (!taken) this.entries.set(session, (taken = new Set()));
    return taken;
  }
}
