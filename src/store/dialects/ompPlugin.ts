// The oh-my-pi dialect plug-in: its subagent roster and transcripts as extension methods (see omp.ts). Its
// subagents are known by registry id only; the plug-in remembers each one's row, per connection.
import type { SessionRecord, SessionStateInfo } from '../model';
import { addUserPrompt, appendChunk } from '../reducers/messages';
import { UNCONFIRMED } from '../stateRules';
import type { ReducerContext } from '../reducerContext';
import { asString, type JsonObject } from '../wireMessage';
import { describeChild, onlyRoot } from './children';
import type { Dialect, DialectHost } from './dialect';
import { OMP_AGENTS_LIST, OMP_AGENTS_MESSAGES, OMP_AGENTS_PROGRESS, OMP_AGENTS_UPDATE, readOmpMessages, readOmpProgress, readOmpRoster, type OmpAgent } from './omp';

/** Each subagent's row by registry id, how far its transcript was read, and whether a parentless one was said. */
interface OmpRows {
  readonly rows: Map<string, string>;
  readonly readUpTo: Map<string, number>;
  ambiguous: boolean;
}

export function ompDialect({ parts }: DialectHost): Dialect {
  const state: OmpRows = { rows: new Map(), readUpTo: new Map(), ambiguous: false };
  const methods = {
    [OMP_AGENTS_UPDATE]: (params: JsonObject) => {
      for (const agent of readOmpRoster(params)) applyOmpAgent(parts, state, agent);
    },
    [OMP_AGENTS_PROGRESS]: (params: JsonObject) => {
      const agent = readOmpProgress(params);
      if (agent) applyOmpAgent(parts, state, agent);
    },
  };
  return {
    notifications: methods,
    requests: methods,
    results: {
      [OMP_AGENTS_LIST]: (_params, body) => {
        for (const agent of readOmpRoster(body)) applyOmpAgent(parts, state, agent);
      },
      [OMP_AGENTS_MESSAGES]: (params, body) => applyOmpMessages(parts, state, params, body),
    },
  };
}

function ompRow(parts: ReducerContext, state: OmpRows, agentId: string): SessionRecord | undefined {
  const id = state.rows.get(agentId);
  return id ? parts.core.session(parts.tree.currentId(id)) : undefined;
}

function applyOmpAgent(parts: ReducerContext, state: OmpRows, agent: OmpAgent): void {
  const { core, tree } = parts;
  let child = ompRow(parts, state, agent.id);
  if (!child) {
    // The roster names no ACP session: a subagent of the main agent goes under the one root that can be its.
    const parent = (agent.parentId ? ompRow(parts, state, agent.parentId) : undefined) ?? onlyRoot(parts);
    if (!parent) {
      if (!state.ambiguous) core.diagnose('ambiguous-parent', `oh-my-pi subagent ${agent.id}: its roster names no session, and no single root is its; not attached`);
      state.ambiguous = true;
      return;
    }
    child = tree.ensureVirtualChild(parent.id, `omp:${agent.id}`, 'omp-agents', agent.agentType);
    state.rows.set(agent.id, child.id);
    // Nothing is known of its work until the agent reports a state: not "running" by default.
    const first: SessionStateInfo = agent.state ?? UNCONFIRMED;
    child.state = first;
    child.stateHistory[0] = { ...child.stateHistory[0]!, state: first.state, ...(first.stopReason ? { stopReason: first.stopReason } : {}), source: 'agent' };
    core.noteSessionState(child);
  }
  if (agent.description && child.title !== agent.description) child.title = agent.description;
  if (agent.displayName && child.description !== agent.displayName) child.description = agent.displayName;
  if (agent.agentType && child.subagentType === null) child.subagentType = agent.agentType;
  if (agent.task && !child.entries.some((e) => e.kind === 'message' && e.role === 'user')) addUserPrompt(parts, child, [{ type: 'text', text: agent.task }]);
  describeChild(parts, child, agent.model ? { model: agent.model } : {});
  if (agent.state) core.setState(child, agent.state, 'agent');
}

function applyOmpMessages(parts: ReducerContext, state: OmpRows, params: JsonObject, body: JsonObject): void {
  const agentId = asString(params['agentId']);
  const child = agentId ? ompRow(parts, state, agentId) : undefined;
  if (!agentId || !child) return;
  const from = typeof params['fromByte'] === 'number' ? params['fromByte'] : 0;
  const next = typeof body['nextByte'] === 'number' ? body['nextByte'] : undefined;
  const readUpTo = state.readUpTo;
  // A page read before (a repeated poll) adds nothing.
  if (next === undefined || next <= from || from < (readUpTo.get(agentId) ?? 0)) return;
  readUpTo.set(agentId, next);
  readOmpMessages(body).forEach((message, i) => {
    if (message.role === 'user') {
      if (!child.entries.some((e) => e.kind === 'message' && e.role === 'user' && e.text === message.text)) addUserPrompt(parts, child, [{ type: 'text', text: message.text }]);
      return;
    }
    appendChunk(parts, child, message.role, { content: { type: 'text', text: message.text }, messageId: `omp:${from}:${i}` });
  });
}
