// opencode's opt-in child session stream: a client that sets `clientCapabilities._meta["opencode/child-session-updates"]`
// gets each subagent as `opencode/session/child_update` notifications on the root session: its life
// (`status`: created, running, completed, failed, interrupted) and its own session updates (`update`). Not in
// opencode 1.18.33 (it ignores the opt-in); the shape is from opencode's source, see test/fixtures/written/README.md.
// Pure readers of the wire shapes.
import type { SessionStateInfo } from '../model';
import { asString, isObject, type JsonObject } from '../wireMessage';

export const OPENCODE_CHILD_UPDATES_KEY = 'opencode/child-session-updates';
export const OPENCODE_CHILD_UPDATE_METHOD = 'opencode/session/child_update';

type OpencodeChildEvent =
  | { readonly type: 'update'; readonly update: JsonObject }
  | { readonly type: 'status'; readonly state: SessionStateInfo | undefined };

export interface OpencodeChildUpdate {
  readonly childSessionId: string;
  /** The root session or, for a grandchild, its parent subagent's session. */
  readonly parentSessionId: string;
  readonly title?: string;
  readonly event: OpencodeChildEvent;
}

/** Whether the agent says (in `agentCapabilities._meta`) that it sends them. */
export function advertisesChildUpdates(agentCapabilities: JsonObject): boolean {
  const meta = isObject(agentCapabilities['_meta']) ? agentCapabilities['_meta'] : undefined;
  return meta?.[OPENCODE_CHILD_UPDATES_KEY] === true || isObject(meta?.[OPENCODE_CHILD_UPDATES_KEY]);
}

/** A subagent's life as a reported state; `created` (announced, not started yet) reports none. */
function stateOf(status: unknown, error: unknown): SessionStateInfo | undefined {
  switch (status) {
    case 'running':
      return { state: 'running' };
    case 'completed':
      return { state: 'idle', stopReason: 'end_turn' };
    case 'interrupted':
      return { state: 'idle', stopReason: 'cancelled' };
    case 'failed': {
      const message = isObject(error) ? asString(error['message']) : asString(error);
      return { state: 'idle', stopReason: 'error', ...(message ? { error: { message } } : {}) };
    }
    default:
      return undefined;
  }
}

/** Reads one notification; anything without both session ids or a known event gives undefined. */
export function readOpencodeChildUpdate(params: JsonObject): OpencodeChildUpdate | undefined {
  const childSessionId = asString(params['childSessionId']);
  const parentSessionId = asString(params['parentSessionId']) ?? asString(params['rootSessionId']);
  if (!childSessionId || !parentSessionId) return undefined;
  const title = asString(params['title'])?.trim() || undefined;
  const base = { childSessionId, parentSessionId, ...(title ? { title } : {}) };
  if (params['type'] === 'update') {
    const update = params['update'];
    return isObject(update) && typeof update['sessionUpdate'] === 'string' ? { ...base, event: { type: 'update', update } } : undefined;
  }
  if (params['type'] === 'status') return { ...base, event: { type: 'status', state: stateOf(params['status'], params['error']) } };
  return undefined;
}

/** opencode prefixes a child's tool call titles with the child's title; its own chat needs no prefix. */
export function withoutTitlePrefix(update: JsonObject, childTitle: string | undefined): JsonObject {
  const title = update['title'];
  if (!childTitle || typeof title !== 'string' || !title.startsWith(`${childTitle}: `)) return update;
  return { ...update, title: title.slice(childTitle.length + 2) };
}
