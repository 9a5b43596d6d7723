// sudocode (`scode acp`) "subagentEvents v1" (sudoprivacy/sudocode PR #718, opt-in at initialize): sub-agent
// activity goes out as ordinary `session/update`s on the parent session. The spawning `agent_spawn` / `Agent`
// call's updates carry `_meta.sudocode.agentSpawn` {agentId, background, name, description, subagentType, model,
// lifecycle {phase: started|finished, status: completed|failed|cancelled, seq, startedAt, completedAt}}; the
// child's own updates carry a second `_meta.sudocode` object naming its stream {parentToolCallId, agentId, seq}
// (fields of `SubagentStreamRef` in rust/crates/runtime/src/subagent_events.rs), and its tool call ids are
// namespaced `<agentId>:<id>`. The stream key's name is not in any source read, so any `_meta.sudocode` object
// with both ids is taken (see test/fixtures/dialects/README.md). Pure readers of the wire shapes.
import type { SessionStateInfo } from '../model';
import { asString, isObject, type JsonObject } from '../wireMessage';

const SUDOCODE_SPAWN_KEY = 'agentSpawn';

export interface SudocodeSpawn {
  readonly agentId: string;
  readonly name?: string;
  readonly description?: string;
  readonly subagentType?: string;
  readonly model?: string;
  readonly background: boolean;
  /** What the lifecycle reports; undefined while it reports nothing (no phase). */
  readonly state?: SessionStateInfo;
}

function sudocodeMeta(update: JsonObject): JsonObject | undefined {
  const meta = isObject(update['_meta']) ? update['_meta'] : undefined;
  return isObject(meta?.['sudocode']) ? meta['sudocode'] : undefined;
}

const FINISHED_STATES: Readonly<Record<string, SessionStateInfo>> = Object.assign(Object.create(null) as object, {
  completed: { state: 'idle', stopReason: 'end_turn' },
  failed: { state: 'idle', stopReason: 'error' },
  cancelled: { state: 'idle', stopReason: 'cancelled' },
});

function lifecycleState(lifecycle: unknown): SessionStateInfo | undefined {
  if (!isObject(lifecycle)) return undefined;
  if (lifecycle['phase'] === 'started') return { state: 'running' };
  if (lifecycle['phase'] !== 'finished') return undefined;
  const status = asString(lifecycle['status']);
  return status ? FINISHED_STATES[status] : undefined;
}

function text(value: unknown): string | undefined {
  return asString(value)?.trim() || undefined;
}

export function readSudocodeSpawn(update: JsonObject): SudocodeSpawn | undefined {
  const spawn = sudocodeMeta(update)?.[SUDOCODE_SPAWN_KEY];
  const agentId = isObject(spawn) ? text(spawn['agentId']) : undefined;
  if (!isObject(spawn) || !agentId) return undefined;
  const name = text(spawn['name']);
  const description = text(spawn['description']);
  const subagentType = text(spawn['subagentType']);
  const model = text(spawn['model']);
  const state = lifecycleState(spawn['lifecycle']);
  return {
    agentId,
    ...(name ? { name } : {}),
    ...(description ? { description } : {}),
    ...(subagentType ? { subagentType } : {}),
    ...(model ? { model } : {}),
    background: spawn['background'] === true,
    ...(state ? { state } : {}),
  };
}

/** The spawning call a child's update belongs to: the `_meta.sudocode` object naming its stream. */
export function sudocodeParentCallOf(update: JsonObject): string | undefined {
  const meta = sudocodeMeta(update);
  if (!meta) return undefined;
  const own = asString(update['toolCallId']);
  for (const [key, value] of Object.entries(meta)) {
    if (key === SUDOCODE_SPAWN_KEY || !isObject(value) || !text(value['agentId'])) continue;
    const parent = text(value['parentToolCallId']);
    if (parent && parent !== own) return parent;
  }
  return undefined;
}
