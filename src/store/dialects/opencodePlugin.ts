// The opencode dialect plug-in for its opt-in `opencode/session/child_update` stream (see opencode.ts):
// each subagent is a session of its own, announced under the session that started it, with its reported life
// and its own updates. Its launching `task` call names it only when it completes (`rawOutput.metadata.sessionId`);
// then the child's card and that call are linked. A virtual child is never made for such a call once the stream
// is known (advertised in initialize, or seen).
import type { SessionRecord } from '../model';
import { advertisesChildUpdates, OPENCODE_CHILD_UPDATE_METHOD, readOpencodeChildUpdate, withoutTitlePrefix, type OpencodeChildUpdate } from './opencode';
import { applyReportedState } from '../reducers/turns';
import type { ReducerContext } from '../reducerContext';
import { remoteChildSessionId } from '../subagentDialects';
import type { SubagentSpawn } from '../subagentSpawn';
import { asString, type JsonObject } from '../wireMessage';
import type { Dialect, DialectHost, OwnedUpdateSink } from './dialect';

export function opencodeDialect({ parts, applyOwned }: DialectHost): Dialect {
  /** opencode streams its subagents here: advertised, or a well-formed notification seen. */
  let streamsChildren = false;
  const onChildUpdate = (params: JsonObject): void => applyChildUpdate(parts, params, applyOwned, () => (streamsChildren = true));
  return {
    initialized: (capabilities) => (streamsChildren ||= advertisesChildUpdates(capabilities)),
    // Also with the `_` extension prefix an SDK may put in front of it.
    notifications: { [OPENCODE_CHILD_UPDATE_METHOD]: onChildUpdate, [`_${OPENCODE_CHILD_UPDATE_METHOD}`]: onChildUpdate },
    refineSpawn: (spawn, update) => (streamsChildren ? streamedChild(parts, spawn, update) : spawn),
  };
}

/** One notification; `streams` is told when it is one this client reads (before the child's update is applied). */
function applyChildUpdate(parts: ReducerContext, params: JsonObject, apply: OwnedUpdateSink, streams: () => void): void {
  const { core, tree } = parts;
  const wireSessionId = asString(params['rootSessionId']) ?? asString(params['parentSessionId']) ?? '';
  const message = readOpencodeChildUpdate(params);
  if (!message) {
    core.diagnose('invalid-message', 'opencode/session/child_update without childSessionId, parentSessionId and a known type');
    return;
  }
  streams();
  const child = announce(parts, message);
  if (!child) return;
  if (message.event.type === 'status') {
    if (message.event.state) applyReportedState(parts, child, message.event.state);
    return;
  }
  // Permission requests for the child's calls come on the wire session naming the (prefixed) call id.
  apply(tree.ensureSession(wireSessionId), child, withoutTitlePrefix(message.event.update, message.title));
}

function announce(parts: ReducerContext, message: OpencodeChildUpdate): SessionRecord | undefined {
  const { core, tree } = parts;
  const parent = core.session(tree.currentId(message.parentSessionId)) ?? tree.ensureSession(message.parentSessionId);
  const child = tree.adoptChild(parent.id, message.childSessionId, 'opencode-child');
  if (!child) return undefined;
  if (message.title && child.title !== message.title) {
    child.title = message.title;
    core.touch(child);
  }
  return child;
}

/**
 * With opencode's child stream a `task` call makes no virtual child: the child is announced by the stream, and
 * the call names it when it completes (`rawOutput.metadata.sessionId`), which links the two.
 */
function streamedChild(parts: ReducerContext, spawn: SubagentSpawn, update: JsonObject): SubagentSpawn | undefined {
  if (spawn.link !== 'opaque-tool') return spawn;
  const named = remoteChildSessionId(update);
  const child = named ? parts.core.session(named) : undefined;
  if (child?.link !== 'opencode-child') return undefined;
  return { link: 'opencode-child', childSessionId: child.id, ...(spawn.subagentType ? { subagentType: spawn.subagentType } : {}) };
}
