// What the newer dialects add to the two questions every update is asked: does this tool call launch a
// subagent, and does this update belong to a child on the parent's session? Pure functions over raw updates.
import type { SessionLink } from '../model';
import type { SubagentSpawn } from '../subagentSpawn';
import { asString, isObject, type JsonObject } from '../wireMessage';
import { isGenericTaskCall } from './cursor';
import { devinParentAgentOf, readDevinStart } from './devin';
import { readSudocodeSpawn, sudocodeParentCallOf } from './sudocode';

/** A launch named by a vendor key (Devin's subagent_started, sudocode's agentSpawn): checked before any guess. */
export function detectMarkedSpawn(update: JsonObject): SubagentSpawn | undefined {
  const devin = readDevinStart(update);
  if (devin) return devin.profile ? { link: 'devin-meta', subagentType: devin.profile } : { link: 'devin-meta' };
  const sudocode = readSudocodeSpawn(update);
  if (sudocode) return sudocode.subagentType ? { link: 'sudocode-meta', subagentType: sudocode.subagentType } : { link: 'sudocode-meta' };
  return undefined;
}

/** A generic `Task` / `agent` call with a prompt (Cursor): the last guess, after every known dialect's. */
export function detectGenericTask(update: JsonObject): SubagentSpawn | undefined {
  if (!isGenericTaskCall(update)) return undefined;
  const rawInput = isObject(update['rawInput']) ? update['rawInput'] : {};
  const subagentType = asString(rawInput['subagentType']) ?? asString(rawInput['subagent_type']);
  return subagentType ? { link: 'cursor-task', subagentType } : { link: 'cursor-task' };
}

/** The parent tool call a child's update on the parent session names: Devin's agentId, sudocode's spawning call. */
export function markedParentOf(update: JsonObject): { readonly link: SessionLink; readonly parentToolCallId: string; readonly subagentType?: string } | undefined {
  const own = asString(update['toolCallId']);
  const agentId = devinParentAgentOf(update);
  if (agentId && agentId !== own) return { link: 'devin-meta', parentToolCallId: agentId };
  const call = sudocodeParentCallOf(update);
  return call ? { link: 'sudocode-meta', parentToolCallId: call } : undefined;
}
