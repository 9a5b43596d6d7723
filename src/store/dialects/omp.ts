// oh-my-pi (`omp acp`) with `clientCapabilities.extensions.agents`: the subagent roster as extension methods
// (can1357/oh-my-pi docs/acp-agents.md). `_omp/agents/list` (client request) and `_omp/agents/update`
// (notification) carry the whole process-wide roster `{agents: [{id, displayName, kind: main|sub, parentId?,
// status: running|idle|parked|aborted, activity?, resolvedModel?, …}]}`; `_omp/agents/progress` one subagent's
// live snapshot `{agent: {id, agent, status: pending|running|completed|failed|aborted, description, task,
// resolvedModel, …}}`; `_omp/agents/messages` (client request `{agentId, fromByte}`) answers a subagent's
// transcript `{messages: [{role, content: [{type: text|thinking, …}]}]}`. No message names an ACP session.
// Pure readers of the wire shapes.
import type { SessionStateInfo } from '../model';
import { asString, isObject, type JsonObject } from '../wireMessage';

export const OMP_AGENTS_LIST = '_omp/agents/list';
export const OMP_AGENTS_UPDATE = '_omp/agents/update';
export const OMP_AGENTS_PROGRESS = '_omp/agents/progress';
export const OMP_AGENTS_MESSAGES = '_omp/agents/messages';

export interface OmpAgent {
  readonly id: string;
  /** The subagent that spawned it; absent for one the main agent spawned. */
  readonly parentId?: string;
  readonly displayName?: string;
  readonly description?: string;
  /** The work it was given (progress `task`). */
  readonly task?: string;
  readonly agentType?: string;
  readonly model?: string;
  /** What the frame reports; undefined when it reports no state the client can show (pending). */
  readonly state?: SessionStateInfo;
}

const ROSTER_STATES: Readonly<Record<string, SessionStateInfo>> = Object.assign(Object.create(null) as object, {
  running: { state: 'running' },
  // "Finished agents stay idle; disposed-but-revivable agents are parked; hard-killed agents are aborted."
  idle: { state: 'idle', stopReason: 'end_turn' },
  parked: { state: 'idle', stopReason: 'end_turn' },
  aborted: { state: 'idle', stopReason: 'cancelled' },
});

const PROGRESS_STATES: Readonly<Record<string, SessionStateInfo>> = Object.assign(Object.create(null) as object, {
  running: { state: 'running' },
  completed: { state: 'idle', stopReason: 'end_turn' },
  failed: { state: 'idle', stopReason: 'error' },
  aborted: { state: 'idle', stopReason: 'cancelled' },
});

function text(value: unknown): string | undefined {
  return asString(value)?.trim() || undefined;
}

function agentOf(raw: JsonObject, states: Readonly<Record<string, SessionStateInfo>>, parentId?: string): OmpAgent | undefined {
  const id = text(raw['id']);
  if (!id) return undefined;
  const status = text(raw['status']);
  const fields = {
    parentId,
    displayName: text(raw['displayName']),
    description: text(raw['description']),
    task: text(raw['task']),
    agentType: text(raw['agent']),
    model: text(raw['resolvedModel']) ?? text(raw['model']),
    state: status ? states[status] : undefined,
  };
  return { id, ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) };
}

/** The subagents of a roster (`_omp/agents/update` params, `_omp/agents/list` result), parents first as sent. */
export function readOmpRoster(body: JsonObject): OmpAgent[] {
  const list = Array.isArray(body['agents']) ? body['agents'].filter(isObject) : [];
  const main = new Set(list.filter((raw) => raw['kind'] === 'main').map((raw) => text(raw['id'])));
  const agents: OmpAgent[] = [];
  for (const raw of list) {
    if (raw['kind'] !== 'sub') continue;
    const parent = text(raw['parentId']);
    const agent = agentOf(raw, ROSTER_STATES, parent && !main.has(parent) ? parent : undefined);
    if (agent) agents.push(agent);
  }
  return agents;
}

/** One subagent's live snapshot (`_omp/agents/progress` params). */
export function readOmpProgress(params: JsonObject): OmpAgent | undefined {
  return isObject(params['agent']) ? agentOf(params['agent'], PROGRESS_STATES) : undefined;
}

export interface OmpMessage {
  readonly role: 'user' | 'agent' | 'thought';
  readonly text: string;
}

/** The text of a `_omp/agents/messages` result, in order: user words, the agent's words and its thinking. */
export function readOmpMessages(body: JsonObject): OmpMessage[] {
  const messages: OmpMessage[] = [];
  for (const message of Array.isArray(body['messages']) ? body['messages'].filter(isObject) : []) {
    const role = message['role'] === 'user' ? 'user' : message['role'] === 'assistant' ? 'agent' : undefined;
    if (!role) continue;
    const blocks = typeof message['content'] === 'string' ? [{ type: 'text', text: message['content'] }] : Array.isArray(message['content']) ? message['content'].filter(isObject) : [];
    for (const block of blocks) {
      if (block['type'] === 'text' && typeof block['text'] === 'string') messages.push({ role, text: block['text'] });
      else if (block['type'] === 'thinking' && typeof block['thinking'] === 'string' && role === 'agent') messages.push({ role: 'thought', text: block['thinking'] });
    }
  }
  return messages;
}
