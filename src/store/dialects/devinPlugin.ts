// The Devin CLI dialect plug-in: each subagent's lifecycle lines on the parent session (see devin.ts) become an
// ordinary tool call keyed by its agentId, plus the child's model and background. On from the first such line.
import { childOfCall, describeChild } from './children';
import type { Dialect, DialectHost } from './dialect';
import { DEVIN_COMPLETED_KEY, DEVIN_STARTED_KEY, devinLifecycleUpdate, readDevinStart } from './devin';

export function devinDialect({ parts, applyOnWire }: DialectHost): Dialect {
  return {
    metaKeys: [DEVIN_STARTED_KEY, DEVIN_COMPLETED_KEY],
    rewrite(wire, update) {
      const devin = devinLifecycleUpdate(update);
      if (!devin) return false;
      applyOnWire(wire.id, devin);
      const start = readDevinStart(update);
      const child = start ? childOfCall(parts, wire.id, start.agentId) : undefined;
      if (start && child) describeChild(parts, child, { ...(start.model ? { model: start.model } : {}), background: start.background });
      return true;
    },
  };
}
