// One connection's dialect plug-ins (the registry in index.ts, made once per store): which are switched on,
// and the store's questions to them. Each per-update hook keeps a list of the switched-on plug-ins that have
// it, so on a connection whose agent speaks no dialect every per-update question is an empty loop.
import type { SessionRecord } from '../model';
import type { ControlFacts } from '../sessionControls';
import type { SpawnHooks, SubagentSpawn } from '../subagentSpawn';
import type { OwnerLookup, UpdateOwner } from '../updateOwner';
import { isObject, type JsonObject } from '../wireMessage';
import type { Dialect, DialectFactory, DialectHost } from './dialect';

type MethodTable = 'notifications' | 'requests';

export class DialectSet implements SpawnHooks {
  private readonly dialects: readonly Dialect[];
  private readonly on = new Set<Dialect>();
  /** Dormant plug-ins by a `_meta` key that switches them on (emptied as they switch on). */
  private readonly byMetaKey = new Map<string, Dialect>();
  // The switched-on plug-ins with each per-update hook, in registry order.
  private rewriters: Dialect[] = [];
  private owners: Dialect[] = [];
  private followers: Dialect[] = [];
  private spawnRefiners: Dialect[] = [];
  /** What the plug-ins add to the resolver's and the controls' questions. */
  readonly lookups: Partial<OwnerLookup>;
  readonly facts: Partial<ControlFacts>;

  constructor(host: DialectHost, factories: readonly DialectFactory[]) {
    this.dialects = factories.map((make) => make(host));
    for (const dialect of this.dialects) for (const key of dialect.metaKeys ?? []) this.byMetaKey.set(key, dialect);
    this.lookups = Object.assign({}, ...this.dialects.map((dialect) => dialect.lookups)) as Partial<OwnerLookup>;
    this.facts = Object.assign({}, ...this.dialects.map((dialect) => dialect.facts)) as Partial<ControlFacts>;
  }

  /** The agent's initialize result: the plug-ins whose dialect it advertises switch on. */
  initialized(capabilities: JsonObject): void {
    for (const dialect of this.dialects) if (dialect.initialized?.(capabilities)) this.switchOn(dialect);
  }

  /** A session update arrived: a `_meta` key of a dormant plug-in switches it on (before the update is applied). */
  notice(update: JsonObject): void {
    const meta = update['_meta'];
    if (this.byMetaKey.size === 0 || !isObject(meta)) return;
    for (const key in meta) {
      const dialect = this.byMetaKey.get(key);
      if (dialect) this.switchOn(dialect);
    }
  }

  /** An agent notification or request a plug-in reads; false when none does. */
  message(table: MethodTable, method: string, params: JsonObject): boolean {
    for (const dialect of this.dialects) {
      const handlers = dialect[table];
      if (!handlers || !Object.hasOwn(handlers, method)) continue;
      this.switchOn(dialect);
      handlers[method]!(params);
      return true;
    }
    return false;
  }

  /** The result of a client request a plug-in reads; false when none does. */
  result(method: string, params: JsonObject, body: JsonObject): boolean {
    for (const dialect of this.dialects) {
      if (!dialect.results || !Object.hasOwn(dialect.results, method)) continue;
      this.switchOn(dialect);
      dialect.results[method]!(params, body);
      return true;
    }
    return false;
  }

  rewrite(wire: SessionRecord, update: JsonObject): boolean {
    for (const dialect of this.rewriters) if (dialect.rewrite!(wire, update)) return true;
    return false;
  }

  ownerOf(wire: SessionRecord, update: JsonObject, kind: string, owner: UpdateOwner): SessionRecord | undefined {
    for (const dialect of this.owners) {
      const target = dialect.ownerOf!(wire, update, kind, owner);
      if (target) return target;
    }
    return undefined;
  }

  afterUpdate(target: SessionRecord, update: JsonObject): void {
    for (const dialect of this.followers) dialect.afterUpdate!(target, update);
  }

  refineSpawn(spawn: SubagentSpawn, update: JsonObject): SubagentSpawn | undefined {
    let refined: SubagentSpawn | undefined = spawn;
    for (const dialect of this.spawnRefiners) if (refined) refined = dialect.refineSpawn!(refined, update);
    return refined;
  }

  noteSpawn(wireId: string, toolCallId: string, spawn: SubagentSpawn): void {
    for (const dialect of this.dialects) {
      if (dialect.spawnLink !== spawn.link) continue;
      this.switchOn(dialect);
      dialect.noteSpawn?.(wireId, toolCallId);
    }
  }

  private switchOn(dialect: Dialect): void {
    if (this.on.has(dialect)) return;
    this.on.add(dialect);
    for (const key of dialect.metaKeys ?? []) this.byMetaKey.delete(key);
    const on = this.dialects.filter((d) => this.on.has(d));
    this.rewriters = on.filter((d) => d.rewrite);
    this.owners = on.filter((d) => d.ownerOf);
    this.followers = on.filter((d) => d.afterUpdate);
    this.spawnRefiners = on.filter((d) => d.refineSpawn);
  }
}
