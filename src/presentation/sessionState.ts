// How a session's state looks, the same in the session tree and in the chat webview: one icon, colour and
// label per state. Pure; depends only on src/protocol.
import type { SessionStateInfo, StateHistoryItem } from '../protocol/transcript';
import { t } from './l10n';
import { ownEntry, shorten } from './lookup';

/**
 * What a row tells of the session: at work, waiting for the user, or neither. Counts shown beside the rows (the
 * status bar) count by it, so they never say "working" of a row that reads idle.
 */
export type Activity = 'working' | 'waiting' | 'idle';

/** What a state looks like. `icon` is a codicon id without modifiers; `spin` animates it. */
export interface PresentedState {
  readonly icon: string;
  readonly spin: boolean;
  readonly activity: Activity;
  /** VS Code theme colour id (`testing.iconPassed`); the webview uses it as `var(--vscode-testing-iconPassed)`. */
  readonly color?: string;
  readonly label: string;
}

/** The parts of a state the presentation reads (the store's SessionStateInfo and the webview's header state fit). */
export type PresentableState = Pick<SessionStateInfo, 'state' | 'stopReason'> & { readonly lastKnown?: PresentableState };

/** What the client knows beyond the reported state. */
export interface StateExtras {
  /** A child still working in the background after its launch call completed. */
  readonly background?: boolean;
  /** The client sent session/cancel and no state change has come since. */
  readonly cancelRequestedAt?: number | null;
  /** Who said what when: a run the agent started itself is said as such. */
  readonly stateHistory?: readonly Pick<StateHistoryItem, 'source'>[];
  /** The last time anything arrived for the session. */
  readonly updatedAt?: number;
  /** Questions (permissions, elicitations) open for the user: the session needs them, whatever state was reported. */
  readonly awaitingUser?: number;
}

/**
 * Quiet this long (ms) after a turn the agent started itself, and it shows as idle: the agent never says
 * when such a turn ends. Only the label; the state stays `running`, and any new work shows it running again.
 */
export const AGENT_STARTED_QUIET_MS = 30_000;

/**
 * Quiet this long (ms) and a background subagent no longer spins: "No end reported". Some agents never report a
 * background child's end; the state stays `running` (silence ends nothing), only the words change.
 */
export const BACKGROUND_QUIET_MS = 120_000;

const MAX_LABEL = 60;

const working = (label: string): PresentedState => ({ icon: 'loading', spin: true, activity: 'working', label });
const still = (icon: string, label: string, color?: string): PresentedState => ({ icon, spin: false, activity: 'idle', ...(color ? { color } : {}), label });

// Functions, not constants: the words are translated when a state is presented (src/presentation/l10n.ts).
const RUNNING = () => working(t('Running'));
const BACKGROUND = () => working(t('Running in background'));
const BACKGROUND_QUIET = (): PresentedState => ({ icon: 'watch', spin: false, activity: 'working', label: t('No end reported') });
const AGENT_STARTED = () => working(t('Running (agent started)'));
const QUIET_AFTER_AGENT_START = () => still('circle-large-outline', t('Idle (quiet)'));
const CANCELLING = () => working(t('Cancelling…'));
const NEEDS_YOU = (): PresentedState => ({ icon: 'bell-dot', spin: false, activity: 'waiting', color: 'notificationsWarningIcon.foreground', label: t('Needs you') });
const IDLE = () => still('circle-large-outline', t('Idle'));
const UNKNOWN = () => still('question', t('Unknown'));
const NOT_REPORTED = () => still('question', t('Not reported'));

/** Idle states by stop reason (ACP `StopReason`). */
const STOPPED: Readonly<Record<string, () => PresentedState>> = {
  end_turn: () => still('pass', t('Done'), 'testing.iconPassed'),
  cancelled: () => still('circle-slash', t('Cancelled'), 'disabledForeground'),
  error: () => still('error', t('Failed'), 'errorForeground'),
  // The client's word: the agent made known that the child ended, not how (opencode's background job).
  ended: () => still('check', t('Ended')),
  refusal: () => still('error', t('Refused'), 'errorForeground'),
  max_tokens: () => still('warning', t('Stopped: max tokens'), 'editorWarning.foreground'),
  max_turn_requests: () => still('warning', t('Stopped: turn limit'), 'editorWarning.foreground'),
};

/** Agent text in a label: one line, bounded. */
function oneLine(text: string): string {
  return shorten(text.replace(/\s+/g, ' ').trim(), MAX_LABEL);
}

/** An agent's snake_case word (a stop reason) in a label: underscores as spaces. */
export function words(text: string): string {
  return oneLine(text.replace(/_/g, ' '));
}

/** The session is working: its elapsed time runs and it may still change. */
export function isWorking(state: Pick<PresentableState, 'state'>): boolean {
  return state.state === 'running' || state.state === 'requires_action';
}

/**
 * `now` lets a turn the agent started, quiet since long, show as idle (without it: running). Reads the facts in
 * the order the controller's phase does (sessionControls.ts phaseOf): a cancel in flight, then an open question.
 */
export function presentState(state: PresentableState, extras: StateExtras = {}, now?: number): PresentedState {
  if (isWorking(state) && extras.cancelRequestedAt != null) return CANCELLING();
  if ((extras.awaitingUser ?? 0) > 0 && state.state !== 'disconnected') return NEEDS_YOU();
  switch (state.state) {
    case 'running':
      if (extras.stateHistory?.at(-1)?.source === 'agent-started') {
        return quietFor(extras, now, AGENT_STARTED_QUIET_MS) ? QUIET_AFTER_AGENT_START() : AGENT_STARTED();
      }
      if (!extras.background) return RUNNING();
      return quietFor(extras, now, BACKGROUND_QUIET_MS) ? BACKGROUND_QUIET() : BACKGROUND();
    case 'requires_action':
      return NEEDS_YOU();
    case 'idle': {
      const reason = state.stopReason;
      if (reason === undefined || reason.trim() === '') return IDLE();
      return ownEntry(STOPPED, reason)?.() ?? { ...IDLE(), label: t('Idle ({0})', words(reason)) };
    }
    case 'unknown':
      return UNKNOWN();
    case 'unconfirmed':
      return NOT_REPORTED();
    case 'disconnected': {
      const last = state.lastKnown && state.lastKnown.state !== 'disconnected' ? presentState(state.lastKnown).label : undefined;
      return still('debug-disconnect', last ? t('Disconnected (last: {0})', last) : t('Disconnected'), 'disabledForeground');
    }
    default: {
      const custom = oneLine(state.state);
      return custom === '' ? UNKNOWN() : still('circle-large-outline', custom);
    }
  }
}

/** Nothing has arrived for the session for `ms` by `now` (false when either time is unknown). */
function quietFor(extras: StateExtras, now: number | undefined, ms: number): boolean {
  return now !== undefined && extras.updatedAt !== undefined && now - extras.updatedAt >= ms;
}

/** Just the label (quick picks and other one-line texts). */
export function stateLabel(state: PresentableState, extras?: StateExtras): string {
  return presentState(state, extras).label;
}
