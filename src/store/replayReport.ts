// The `subchats replay` output: the session tree as JSON (the public snapshot shape) and as indented text.
import type { Diagnostic, SessionView } from './model';
import type { SessionUsage } from './usage';
import type { SessionStore } from './sessionStore';
import { plainText } from '../presentation';

interface ReplayToolCall {
  readonly id: string;
  readonly title: string;
  readonly kind: string;
  readonly status: string;
  /** Still open when its prompt turn ended with this stop reason; the agent never reported its end. */
  readonly stoppedWithTurn?: string;
}

export interface ReplaySession {
  readonly id: string;
  readonly parentId: string | null;
  readonly parentToolCallId: string | null;
  readonly link: string;
  /** What the tree and the chat show as the session's name (never an id). */
  readonly label: string;
  readonly title: string | null;
  readonly state: string;
  readonly stopReason: string | null;
  /** The agent's own words on the end where the client reads it otherwise (a failure after the user's cancel). */
  readonly reported?: string;
  /** The error the agent reported with the end, when it gave one. */
  readonly error?: string;
  readonly canCancel: boolean;
  readonly toolCalls: ReplayToolCall[];
  readonly text: string;
  /** Characters of the agent's messages the store keeps on disk (textSpill.ts), not in `text`; absent when none. */
  readonly textOnDisk?: number;
  // Extra fields (allowed by the format): what a reader needs to tell sessions apart.
  readonly origin: string;
  readonly description: string | null;
  readonly subagentType: string | null;
  readonly depth: number;
  /** Works on in the background, as the agent said (launch returned, or flagged so at its start). */
  readonly background: boolean;
  /** The model the agent named for it (`meta.model`), when it named one. */
  readonly model: string | null;
  /**
   * What the agent reported it spent, where it reported any (src/store/usage.ts): `totalTokens`,
   * `inputTokens`, `outputTokens`, `cost` {amount, currency}, `model`, context `contextUsed`/`contextSize`,
   * each only where reported, and `source` (which wire reports they came from).
   */
  readonly usage?: SessionUsage;
}

export interface ReplaySnapshot {
  readonly sessions: ReplaySession[];
  readonly diagnostics: Diagnostic[];
}

export function toReplaySnapshot(store: SessionStore): ReplaySnapshot {
  const sessions = store.listSessions().map((session) => toReplaySession(store, session));
  return { sessions, diagnostics: [...store.diagnostics] };
}

function toReplaySession(store: SessionStore, session: SessionView): ReplaySession {
  let depth = 0;
  for (let p = session.parentId; p; p = store.getSession(p)?.parentId ?? null) depth++;
  return {
    id: session.id,
    parentId: session.parentId,
    parentToolCallId: session.parentToolCallId,
    link: session.link,
    label: session.label,
    title: session.title,
    state: session.state.state,
    stopReason: session.state.stopReason ?? null,
    ...(session.state.reported !== undefined ? { reported: session.state.reported } : {}),
    ...(session.state.error?.message !== undefined ? { error: session.state.error.message } : {}),
    canCancel: store.actionsFor(session.id).cancel.allowed,
    toolCalls: session.toolCallOrder.map((id) => {
      const call = session.toolCalls[id]!;
      return { id, title: call.title, kind: call.kind, status: call.status, ...(call.stoppedByTurn ? { stoppedWithTurn: call.stoppedByTurn.stopReason } : {}) };
    }),
    text: session.entries.map((e) => (e.kind === 'message' && e.role === 'agent' ? e.text : '')).join(''),
    ...textOnDisk(session),
    origin: session.origin,
    description: session.description,
    subagentType: session.subagentType,
    depth,
    background: session.background,
    model: typeof session.meta?.['model'] === 'string' ? session.meta['model'] : null,
    ...(session.spend ? { usage: session.spend } : {}),
  };
}

function textOnDisk(session: SessionView): { textOnDisk?: number } {
  let chars = 0;
  for (const e of session.entries) if (e.kind === 'message' && e.role === 'agent') chars += e.earlier?.chars ?? 0;
  return chars > 0 ? { textOnDisk: chars } : {};
}

export function formatReplayText(snapshot: ReplaySnapshot): string {
  const lines: string[] = [];
  for (const s of snapshot.sessions) {
    const indent = '  '.repeat(s.depth);
    const state = s.stopReason ? `${s.state}/${s.stopReason}` : s.state;
    const label = s.label;
    const counts = `${s.toolCalls.length} tool call${s.toolCalls.length === 1 ? '' : 's'}, ${s.text.length} chars`;
    const how = s.parentId ? ` via ${s.link}` : '';
    lines.push(`${indent}${s.parentId ? '└─ ' : ''}${label} [${state}]${s.canCancel ? ' (cancellable)' : ''} (${counts})${how}`);
    lines.push(`${indent}${s.parentId ? '   ' : ''}  id: ${s.id}`);
  }
  if (snapshot.diagnostics.length > 0) {
    lines.push('', `Diagnostics (${snapshot.diagnostics.length}):`);
    for (const d of snapshot.diagnostics) lines.push(`  line ${d.line}: [${d.code}] ${d.message}`);
  } else {
    lines.push('', 'No diagnostics.');
  }
  // Printed to a terminal: agent text must not carry escape sequences (OSC 52 clipboard, OSC 0 title, CSI 2J)
  // or bidi controls, nor start lines of its own.
  return lines.map((line) => plainText(line).replace(/\n/g, ' ⏎ ')).join('\n');
}

/** Replays a whole transcript text into a fresh store. */
export function replayText(store: SessionStore, text: string): void {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) store.ingestLine(lines[i]!, i + 1);
}
