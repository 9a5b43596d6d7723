// The sudocode dialect plug-in ("subagentEvents v1", see sudocode.ts): the spawning call's `_meta.sudocode.agentSpawn`
// names, describes and reports its child beside the ordinary tool call. On from the first `_meta.sudocode`.
import type { SessionRecord } from '../model';
import type { ReducerContext } from '../reducerContext';
import { childOfCall, describeChild } from './children';
import type { Dialect, DialectHost } from './dialect';
import { readSudocodeSpawn, type SudocodeSpawn } from './sudocode';

export function sudocodeDialect({ parts, applyOnWire }: DialectHost): Dialect {
  return {
    metaKeys: ['sudocode'],
    rewrite(wire, update) {
      const sudocode = readSudocodeSpawn(update);
      if (!sudocode || typeof update['toolCallId'] !== 'string') return false;
      applyOnWire(wire.id, update);
      const child = childOfCall(parts, wire.id, update['toolCallId']);
      if (child) applySudocodeSpawn(parts, child, sudocode);
      return true;
    },
  };
}

function applySudocodeSpawn(parts: ReducerContext, child: SessionRecord, spawn: SudocodeSpawn): void {
  // The call was first seen without the marker (a plain Agent call): the marker says whose it is.
  if (child.link === 'opaque-tool') child.link = 'sudocode-meta';
  if (child.title === null && (spawn.name ?? spawn.description)) child.title = spawn.name ?? spawn.description ?? null;
  if (child.description === null && spawn.description) child.description = spawn.description;
  if (child.subagentType === null && spawn.subagentType) child.subagentType = spawn.subagentType;
  const finished = spawn.state !== undefined && spawn.state.state !== 'running';
  describeChild(parts, child, { ...(spawn.model ? { model: spawn.model } : {}), background: spawn.background && !finished });
  if (!spawn.state) return;
  if (finished && child.background) child.background = false;
  parts.core.setState(child, spawn.state, 'agent');
}
