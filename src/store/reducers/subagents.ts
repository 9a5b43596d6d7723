// ACP subagent announcements (`subagent_update`, the older `subagent_spawned` / `subagent_state_update`) and
// a session's own `state_update`: three-state patches of the child's fields and its reported work state.
import type { SessionLink, SessionRecord, SessionStateInfo } from '../model';
import { readReportedState, sameState } from '../stateRules';
import type { ReducerContext } from '../reducerContext';
import { readTurnUsage } from '../usage';
import { asString, isObject, type JsonObject } from '../wireMessage';
import { addUserPrompt } from './messages';
import { applyReportedState } from './turns';
import { noteUsage } from './usage';

export function applySubagentUpdate(parts: ReducerContext, parent: SessionRecord, update: JsonObject, link: SessionLink): void {
  const { core, tree } = parts;
  const childId = asString(update['sessionId']) ?? asString(update['subagentSessionId']);
  if (!childId) {
    core.diagnose('invalid-message', `${String(update['sessionUpdate'])} without a child sessionId`);
    return;
  }
  const child = tree.adoptChild(parent.id, childId, link);
  if (!child) return;
  // Three-state patch: omitted keeps, null clears, a value replaces (objects and lists replace whole).
  const title = 'title' in update ? update['title'] : update['name'];
  if (title !== undefined) child.title = typeof title === 'string' ? title : null;
  const description = 'description' in update ? update['description'] : update['task'];
  if (description !== undefined) child.description = typeof description === 'string' ? description : null;
  if ('capabilities' in update) child.capabilities = isObject(update['capabilities']) ? update['capabilities'] : null;
  if ('cwd' in update) child.cwd = asString(update['cwd']) ?? null;
  if ('additionalDirectories' in update) {
    const dirs = update['additionalDirectories'];
    child.additionalDirectories = Array.isArray(dirs) ? dirs.filter((d): d is string => typeof d === 'string') : null;
  }
  if ('_meta' in update) child.meta = isObject(update['_meta']) ? update['_meta'] : null;
  if (typeof update['prompt'] === 'string' && child.entries.length === 0) addUserPrompt(parts, child, [{ type: 'text', text: update['prompt'] }]);
  const replaying = parts.replaying.has(tree.rootOf(parent.id)?.id ?? '');
  if (replaying) child.controlsStale = true;
  else if (child.controlsStale && ('capabilities' in update || 'state' in update)) child.controlsStale = false;
  const state = readReportedState(update['state']);
  if (state) applyStateWithUsage(parts, child, state, update['state']);
  core.touch(child);
}

/** A session reports its own work state (v2 `state_update`; v1 agents that send it early). */
export function applyStateUpdate(parts: ReducerContext, session: SessionRecord, update: JsonObject): void {
  const state = readReportedState(update);
  if (state) applyStateWithUsage(parts, session, state, update);
}

/**
 * A reported state, and the usage of the turn an idle report ends. The same end is often reported twice (a
 * parent's mirror and the child's own): only a report that changes the state counts the turn's usage.
 */
function applyStateWithUsage(parts: ReducerContext, session: SessionRecord, state: SessionStateInfo, raw: unknown): void {
  const repeated = sameState(session.state, state);
  applyReportedState(parts, session, state);
  if (!repeated && state.state === 'idle' && isObject(raw)) noteUsage(parts, session, readTurnUsage(raw, 'state_update'));
}
