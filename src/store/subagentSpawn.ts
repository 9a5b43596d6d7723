// What a subagent launch is, as the dialect readers report it (subagentDialects.ts, dialects/detect.ts), and what
// the tool call reducer asks the dialects about one. Types only, shared without the readers importing each other.
import type { SessionLink } from './model';
import type { JsonObject } from './wireMessage';

export interface SubagentSpawn {
  readonly link: SessionLink;
  /** A real child session id on the wire; absent when the child is reconstructed from the tool call (virtual). */
  readonly childSessionId?: string;
  readonly subagentType?: string;
  /** The launch says the child runs in the background (draft `subagent.runMode: "background"`). */
  readonly background?: boolean;
}

/** What the tool call reducer asks the connection's dialects about a launch it detected (dialects/dialectSet.ts). */
export interface SpawnHooks {
  /** The launch as the dialects that speak on this connection have it (undefined: no child of its own). */
  refineSpawn(spawn: SubagentSpawn, update: JsonObject): SubagentSpawn | undefined;
  /** The launch was detected on this wire session (before its child is made). */
  noteSpawn(wireId: string, toolCallId: string, spawn: SubagentSpawn): void;
}
