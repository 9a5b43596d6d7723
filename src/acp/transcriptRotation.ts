// Bounding a connection's transcript without losing how it ended: the oldest lines go first, but the lines
// that carry turn ends and state changes stay, so a replay still reaches the right final states.
import { AgentMethod, ClientMethod } from '../protocol/acpMethods';
import { asRecord } from './json';

/** Client requests whose lines and answers set up sessions or end turns. */
const STATE_METHODS = new Set<string>([
  AgentMethod.initialize,
  AgentMethod.sessionNew,
  AgentMethod.sessionLoad,
  AgentMethod.sessionResume,
  AgentMethod.sessionPrompt,
  AgentMethod.sessionClose,
  AgentMethod.sessionSetMode,
  AgentMethod.sessionSetConfigOption,
]);
/** Session updates that announce children or change a state (not streamed text or tool progress). */
const STATE_UPDATES = new Set(['subagent_update', 'subagent_spawned', 'subagent_state_update', 'state_update', 'session_info_update']);

/** Tells, message by message in wire order, which ones a bounded transcript must keep. */
export class StateLineFilter {
  private readonly clientRequests = new Map<string | number, string>();

  keeps(message: unknown, direction: string): boolean {
    const msg = asRecord(message);
    if (!msg) return false;
    const { id, method } = msg;
    if (typeof method === 'string') {
      if (direction === 'client->agent' && (typeof id === 'string' || typeof id === 'number')) this.clientRequests.set(id, method);
      if (STATE_METHODS.has(method)) return true;
      const update = asRecord(asRecord(msg['params'])?.['update']);
      return method === ClientMethod.sessionUpdate && typeof update?.['sessionUpdate'] === 'string' && STATE_UPDATES.has(update['sessionUpdate']);
    }
    if (direction !== 'agent->client' || (typeof id !== 'string' && typeof id !== 'number')) return false;
    const answered = this.clientRequests.get(id);
    this.clientRequests.delete(id);
    return answered !== undefined && STATE_METHODS.has(answered);
  }
}

/**
 * Drops the oldest lines the filter does not keep until the text fits `maxBytes` (then the oldest kept ones).
 * The initialize exchange always stays: it says which ACP version (1 or 2) every later line speaks.
 */
export function rotateTranscript(text: string, maxBytes: number): { text: string; droppedBytes: number } {
  const lines = text.split('\n').filter((line) => line.length > 0);
  const sizes = lines.map((line) => Buffer.byteLength(line) + 1);
  let total = sizes.reduce((sum, size) => sum + size, 0);
  if (total <= maxBytes) return { text, droppedBytes: 0 };
  const filter = new StateLineFilter();
  const initializeIds = new Set<unknown>();
  const pinned: boolean[] = [];
  const keep = lines.map((line) => {
    try {
      const parsed = JSON.parse(line) as { dir?: unknown; msg?: unknown };
      const msg = asRecord(parsed.msg);
      if (msg?.['method'] === AgentMethod.initialize) initializeIds.add(msg['id']);
      pinned.push(msg !== undefined && (msg['method'] === AgentMethod.initialize || (msg['method'] === undefined && parsed.dir === 'agent->client' && initializeIds.has(msg['id']))));
      return filter.keeps(parsed.msg, String(parsed.dir));
    } catch {
      pinned.push(false);
      return false;
    }
  });
  const dropped = new Array<boolean>(lines.length).fill(false);
  let droppedBytes = 0;
  for (const pass of [false, true]) {
    for (let i = 0; i < lines.length && total > maxBytes; i++) {
      if (dropped[i] || pinned[i] || keep[i] !== pass) continue;
      dropped[i] = true;
      total -= sizes[i]!;
      droppedBytes += sizes[i]!;
    }
  }
  return { text: lines.filter((_, i) => !dropped[i]).map((line) => `${line}\n`).join(''), droppedBytes };
}
