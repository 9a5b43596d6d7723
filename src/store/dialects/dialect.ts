// The contract of an agent dialect plug-in: how one agent's own wire (its extension methods, `_meta` keys and
// launch shapes) becomes the store's ordinary updates and reducer calls. Every plug-in is made once per
// connection with its own state, and stays dormant until the agent shows it speaks the dialect (its
// initialize result, one of its methods, `_meta` keys or launches); only then do its per-update hooks run, so
// an agent that does not speak it pays nothing for it. The registry is index.ts.
import type { SessionLink, SessionRecord } from '../model';
import type { ControlFacts } from '../sessionControls';
import type { ReducerContext } from '../reducerContext';
import type { SubagentSpawn } from '../subagentSpawn';
import type { OwnerLookup, UpdateOwner } from '../updateOwner';
import type { JsonObject } from '../wireMessage';

/** Applies an ordinary session update that arrived on this wire session id (owner resolution included). */
export type UpdateSink = (wireSessionId: string, update: JsonObject) => void;

/** Applies a session update that arrived on `wire` and belongs to `target` (owner already known). */
export type OwnedUpdateSink = (wire: SessionRecord, target: SessionRecord, update: JsonObject) => void;

/** What the store hands a plug-in when it makes it. */
export interface DialectHost {
  readonly parts: ReducerContext;
  readonly applyOnWire: UpdateSink;
  readonly applyOwned: OwnedUpdateSink;
}

export interface Dialect {
  // ---- what switches it on (each also works while it is dormant) ----
  /** Reads the agent's initialize result (capabilities as its version names them); true: the agent speaks it. */
  initialized?(capabilities: JsonObject): boolean;
  /** Agent-to-client notifications it reads, by method; the first one switches it on. */
  readonly notifications?: Readonly<Record<string, (params: JsonObject) => void>>;
  /** Agent-to-client requests it reads, by method (the client's answer is not the store's business). */
  readonly requests?: Readonly<Record<string, (params: JsonObject) => void>>;
  /** Results of the client's own requests it reads, by method. */
  readonly results?: Readonly<Record<string, (params: JsonObject, body: JsonObject) => void>>;
  /** `_meta` keys only this agent puts on its session updates: the first one seen switches it on. */
  readonly metaKeys?: readonly string[];
  /** The link its subagent launches are detected as: the first such launch switches it on. */
  readonly spawnLink?: SessionLink;
  /** What it adds to the owner resolver's and the controls' questions (asked whether it is on or not). */
  readonly lookups?: Partial<OwnerLookup>;
  readonly facts?: Partial<ControlFacts>;

  // ---- per update, once switched on ----
  /** A session update it applies in place of the ordinary path (true: done). */
  rewrite?(wire: SessionRecord, update: JsonObject): boolean;
  /** The session an update belongs to, where the dialect knows better than the resolver's decision. */
  ownerOf?(wire: SessionRecord, update: JsonObject, kind: string, owner: UpdateOwner): SessionRecord | undefined;
  /** After the update's reducer ran on its owner. */
  afterUpdate?(target: SessionRecord, update: JsonObject): void;
  /** A subagent launch as this dialect has it (undefined: it makes no child of its own). */
  refineSpawn?(spawn: SubagentSpawn, update: JsonObject): SubagentSpawn | undefined;
  /** A launch of its kind (`spawnLink`) was detected on this wire session. */
  noteSpawn?(wireId: string, toolCallId: string): void;
}

/** Makes a dialect's plug-in for one connection. */
export type DialectFactory = (host: DialectHost) => Dialect;
