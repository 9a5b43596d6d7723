// How a tool call's status looks in the chat, including calls a prompt turn left open.
import type { TerminalRecord, ToolCallRecord } from '../protocol/transcript';
import { t } from './l10n';
import { ownEntry } from './lookup';
import { words } from './sessionState';

export interface PresentedToolStatus {
  /** Codicon id without modifiers. */
  readonly icon: string;
  readonly spin: boolean;
  readonly label: string;
}

type ToolStatusCall = Pick<ToolCallRecord, 'status' | 'stoppedByTurn'>;

// Functions, not constants: the words are translated when a status is presented (src/presentation/l10n.ts).
const STATUSES: Readonly<Record<string, () => PresentedToolStatus>> = {
  pending: () => ({ icon: 'circle-outline', spin: false, label: t('pending') }),
  in_progress: () => ({ icon: 'loading', spin: true, label: t('running') }),
  completed: () => ({ icon: 'check', spin: false, label: t('completed') }),
  failed: () => ({ icon: 'error', spin: false, label: t('failed') }),
  cancelled: () => ({ icon: 'circle-slash', spin: false, label: t('cancelled') }),
  paused: () => ({ icon: 'debug-pause', spin: false, label: t('paused') }),
};

/** The agent reported the call's end (ACP statuses plus `cancelled`, which some agents send). */
function isEnded(status: string): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** How the turn that left this call open ended, when it did and the agent never reported the call's end. */
export function stoppedWithTurn(call: ToolStatusCall): ToolCallRecord['stoppedByTurn'] {
  return isEnded(call.status) ? undefined : call.stoppedByTurn;
}

/** Still open as far as the agent said, and not stopped with its turn. */
export function isToolCallOpen(call: ToolStatusCall): boolean {
  return !isEnded(call.status) && call.stoppedByTurn === undefined;
}

/** ACP v2: the call itself grants `tool_call/cancel` now (a `cancel` object marker while it is open). */
export function grantsCancel(call: ToolStatusCall & Pick<ToolCallRecord, 'capabilities'>): boolean {
  return isCancelMarker(call.capabilities?.['cancel']) && isToolCallOpen(call);
}

/** ACP v2: an agent-owned terminal grants `terminal/cancel` now (a `cancel` object marker until it exits). */
export function terminalGrantsCancel(terminal: Pick<TerminalRecord, 'agentOwned' | 'capabilities' | 'exitStatus'>): boolean {
  return terminal.agentOwned === true && terminal.exitStatus === null && isCancelMarker(terminal.capabilities?.['cancel']);
}

/** Grants are objects (`{}`); `true`, `null`, arrays and anything else are not. */
function isCancelMarker(marker: unknown): boolean {
  return typeof marker === 'object' && marker !== null && !Array.isArray(marker);
}

/** The turn's end in words: "turn cancelled", "turn ended", "turn max tokens". */
function turnEnd(stopReason: string): string {
  const reason = stopReason === 'end_turn' ? '' : words(stopReason);
  return reason ? t('turn {0}', reason) : t('turn ended');
}

export function presentToolStatus(call: ToolStatusCall): PresentedToolStatus {
  const stopped = stoppedWithTurn(call);
  // The agent never said how the call ended: it stopped with its turn, with no claim about a result.
  if (stopped) return { icon: 'debug-stop', spin: false, label: t('stopped · {0}', turnEnd(stopped.stopReason)) };
  return ownEntry(STATUSES, call.status)?.() ?? { icon: 'circle-outline', spin: false, label: words(call.status) || t('unknown') };
}

/** The call's progress line, only while it runs; it goes when the call ends or stops with its turn. */
export function toolProgress(call: Pick<ToolCallRecord, 'status' | 'stoppedByTurn' | 'progress'>): string | undefined {
  const text = call.progress?.trim();
  return text && isToolCallOpen(call) ? text : undefined;
}

const KIND_ICONS: Readonly<Record<string, string>> = {
  read: 'file',
  edit: 'edit',
  delete: 'trash',
  move: 'arrow-swap',
  search: 'search',
  execute: 'terminal',
  think: 'lightbulb',
  fetch: 'globe',
  switch_mode: 'symbol-enum',
  subagent: 'hubot',
};

/** Codicon for an ACP tool kind; unknown kinds get the generic tools icon. */
export function toolKindIcon(kind: string): string {
  return ownEntry(KIND_ICONS, kind) ?? 'tools';
}
