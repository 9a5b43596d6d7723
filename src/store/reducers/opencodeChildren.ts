// opencode's `opencode/session/child_update` stream (see opencodeDialect.ts): each subagent is a session of
// its own, announced under the session that started it, with its reported life and its own updates. Its
// launching `task` call names it only when it completes (`rawOutput.metadata.sessionId`); then the child's
// card and that call are linked. A virtual child is never made for such a call.
import type { SessionRecord } from '../model';
import { readOpencodeChildUpdate, withoutTitlePrefix, type OpencodeChildUpdate } from '../opencodeDialect';
import type { StoreParts } from '../storeParts';
import type { JsonObject } from '../wireMessage';
import { applyReportedState } from './turns';

/** Applies one of the child's own session updates, owned by the child, on the wire of the session it came on. */
export type ChildUpdateSink = (wire: SessionRecord, child: SessionRecord, update: JsonObject) => void;

export function applyOpencodeChildUpdate(parts: StoreParts, wireSessionId: string, params: JsonObject, apply: ChildUpdateSink): void {
  const { core, tree } = parts;
  const message = readOpencodeChildUpdate(params);
  if (!message) {
    core.diagnose('invalid-message', 'opencode/session/child_update without childSessionId, parentSessionId and a known type');
    return;
  }
  parts.opencode.childUpdates = true;
  const child = announce(parts, message);
  if (!child) return;
  if (message.event.type === 'status') {
    if (message.event.state) applyReportedState(parts, child, message.event.state);
    return;
  }
  // Permission requests for the child's calls come on the wire session naming the (prefixed) call id.
  apply(tree.ensureSession(wireSessionId), child, withoutTitlePrefix(message.event.update, message.title));
}

function announce(parts: StoreParts, message: OpencodeChildUpdate): SessionRecord | undefined {
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
