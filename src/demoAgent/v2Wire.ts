// The demo agent's ACP v2 wire: the same scripted turn, put into v2 shapes on its way out. Tool calls are
// created by `tool_call_update`, plans are `plan_update`, diffs carry `changes` and a git patch, config
// options are named by `configId`, modes are config options only, and a subagent's state is reported twice:
// the parent's `subagent_update` mirror first, then the child's own `state_update` (as Claude does).
import type { Update } from './channel';
import type { Json, JsonObject } from './lineRpc';
import { isObject } from './lineRpc';

export interface WireUpdate {
  readonly sessionId: string;
  readonly update: JsonObject;
}

/** The v2 updates one v1-shaped update becomes (none for a v1-only one). */
export function toV2Updates(sessionId: string, update: Update): WireUpdate[] {
  switch (update.sessionUpdate) {
    case 'tool_call':
      return [{ sessionId, update: toV2ToolCall({ ...update, sessionUpdate: 'tool_call_update' }) }];
    case 'tool_call_update':
      return [{ sessionId, update: toV2ToolCall(update) }];
    case 'plan':
      return [{ sessionId, update: { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'plan', entries: update.entries ?? [] } } }];
    case 'current_mode_update':
      // v2 has no modes: the `mode` config option (config_option_update) says it.
      return [];
    case 'config_option_update':
      return [{ sessionId, update: { ...update, configOptions: toV2ConfigOptions(update.configOptions) } }];
    case 'available_commands_update':
      return [{ sessionId, update: { ...update, availableCommands: Array.isArray(update.availableCommands) ? update.availableCommands.map((c) => (isObject(c) ? { type: 'command', ...c } : c)) : [] } }];
    case 'subagent_update': {
      const childId = typeof update.sessionId === 'string' ? update.sessionId : undefined;
      const mirror: WireUpdate = { sessionId, update };
      if (!childId || !isObject(update.state)) return [mirror];
      return [mirror, { sessionId: childId, update: { sessionUpdate: 'state_update', ...update.state } }];
    }
    default:
      return [{ sessionId, update }];
  }
}

/** A v1 `tool_call`/`tool_call_update` body in v2 form (its diffs become v2 diffs). */
function toV2ToolCall(toolCall: JsonObject): JsonObject {
  if (!Array.isArray(toolCall.content)) return toolCall;
  return { ...toolCall, content: toolCall.content.map(toV2Content) };
}

function toV2Content(item: Json): Json {
  if (!isObject(item) || item.type !== 'diff' || typeof item.path !== 'string' || typeof item.newText !== 'string') return item;
  const oldText = typeof item.oldText === 'string' ? item.oldText : null;
  return {
    type: 'diff',
    changes: [{ operation: oldText === null ? 'add' : 'modify', path: item.path }],
    patch: { format: 'git_patch', text: gitPatch(item.path, oldText, item.newText) },
  };
}

/** A whole-file git patch: every old line removed, every new line added (enough to render the change). */
export function gitPatch(filePath: string, oldText: string | null, newText: string): string {
  const lines = (text: string): string[] => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));
  const before = oldText === null ? [] : lines(oldText);
  const after = lines(newText);
  const name = filePath.replace(/^\/+/, '');
  const header = [`diff --git a/${name} b/${name}`, ...(oldText === null ? ['new file mode 100644', '--- /dev/null'] : [`--- a/${name}`]), `+++ b/${name}`];
  const hunk = `@@ -${before.length ? 1 : 0},${before.length} +${after.length ? 1 : 0},${after.length} @@`;
  return [...header, hunk, ...before.map((l) => `-${l}`), ...after.map((l) => `+${l}`)].join('\n') + '\n';
}

/** v2 names a config option by `configId`. */
export function toV2ConfigOptions(options: Json | undefined): Json[] {
  if (!Array.isArray(options)) return [];
  return options.map((option) => {
    if (!isObject(option)) return option;
    const { id, ...rest } = option;
    return { configId: id ?? null, ...rest };
  });
}

/** A v1 permission request ({toolCall, options}) in the v2 shape ({title, description, subject, options}). */
export function toV2Permission(params: JsonObject): JsonObject {
  const toolCall = isObject(params.toolCall) ? params.toolCall : {};
  const title = typeof toolCall.title === 'string' && toolCall.title ? toolCall.title : 'Permission requested';
  const { toolCall: _v1, ...rest } = params;
  return {
    ...rest,
    title: `Allow: ${title}?`,
    description: 'The demo agent waits for your answer before it goes on.',
    subject: { type: 'tool_call', toolCall: toV2ToolCall(toolCall) },
  };
}
