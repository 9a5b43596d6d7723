// v2 agent-owned terminals: `terminal_update` upserts a terminal's stored state (its output as an
// authoritative base64 snapshot), `terminal_output_chunk` appends base64 bytes. Tool call content of type
// `terminal` shows them like the terminals the client runs for v1 agents. Output is bounded like the client's
// own terminals: the last AGENT_TERMINAL_OUTPUT_CHARS are kept, so a flooding agent cannot grow memory.
import type { SessionRecord, TerminalRecord } from '../model';
import type { ReducerContext } from '../reducerContext';
import { asString, isObject, type JsonObject } from '../wireMessage';

/** Output kept per agent terminal (the client's own terminals keep 1 MiB by default, too). */
export const AGENT_TERMINAL_OUTPUT_CHARS = 1024 * 1024;
/** Trimmed only past this, back to the bound: one copy per half a bound of output, not one per chunk. */
const TRIM_AT_CHARS = AGENT_TERMINAL_OUTPUT_CHARS * 1.5;

export function applyTerminalUpdate(parts: ReducerContext, session: SessionRecord, update: JsonObject): void {
  const terminal = ensureTerminal(parts, session, update);
  if (!terminal) return;
  if ('command' in update) terminal.command = asString(update['command']) ?? '';
  if ('cwd' in update) terminal.cwd = asString(update['cwd']) ?? null;
  if ('exitStatus' in update) terminal.exitStatus = isObject(update['exitStatus']) ? update['exitStatus'] : null;
  if ('capabilities' in update) terminal.capabilities = isObject(update['capabilities']) ? update['capabilities'] : null;
  if ('output' in update) {
    const output = isObject(update['output']) ? update['output'] : undefined;
    parts.terminalDecoders.delete(decoderKey(session, terminal));
    terminal.output = typeof output?.['data'] === 'string' ? decode(parts, session, terminal, output['data']) : '';
    // A new snapshot starts the output afresh.
    terminal.truncated = false;
    delete terminal.droppedChars;
    keepTail(terminal);
  }
  parts.core.touch(session);
}

export function applyTerminalOutputChunk(parts: ReducerContext, session: SessionRecord, update: JsonObject): void {
  const terminal = ensureTerminal(parts, session, update);
  if (!terminal || typeof update['data'] !== 'string') return;
  terminal.output += decode(parts, session, terminal, update['data']);
  keepTail(terminal);
  parts.core.touch(session);
}

/** Drops the front of an output past the bound (never half of a surrogate pair) and counts what went. */
function keepTail(terminal: TerminalRecord): void {
  const { output } = terminal;
  if (output.length <= TRIM_AT_CHARS) return;
  let start = output.length - AGENT_TERMINAL_OUTPUT_CHARS;
  const first = output.charCodeAt(start);
  if (first >= 0xdc00 && first <= 0xdfff) start++;
  terminal.output = output.slice(start);
  terminal.truncated = true;
  terminal.droppedChars = (terminal.droppedChars ?? 0) + start;
}

function ensureTerminal(parts: ReducerContext, session: SessionRecord, update: JsonObject): TerminalRecord | undefined {
  const terminalId = asString(update['terminalId']);
  if (!terminalId) {
    parts.core.diagnose('invalid-message', `${String(update['sessionUpdate'])} without a terminalId`);
    return undefined;
  }
  // A new id starts unknown: no command, no output, not exited.
  session.terminals[terminalId] ??= { terminalId, command: '', args: [], output: '', truncated: false, exitStatus: null, agentOwned: true };
  return session.terminals[terminalId];
}

function decoderKey(session: SessionRecord, terminal: TerminalRecord): string {
  return `${session.id}\0${terminal.terminalId}`;
}

/** Base64 bytes to text; a UTF-8 character split across chunks waits for its other half. Bad base64 is dropped. */
function decode(parts: ReducerContext, session: SessionRecord, terminal: TerminalRecord, data: string): string {
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  } catch {
    parts.core.diagnose('invalid-message', `terminal ${terminal.terminalId}: output is not base64 (ignored)`);
    return '';
  }
  const key = decoderKey(session, terminal);
  let decoder = parts.terminalDecoders.get(key);
  if (!decoder) {
    decoder = new TextDecoder('utf-8');
    parts.terminalDecoders.set(key, decoder);
  }
  return decoder.decode(bytes, { stream: true });
}
