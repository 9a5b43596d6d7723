// Per-session facts the connection needs to decide what it may send: the modes and config options
// the agent advertised for a session, its subagent catalog, and its cwd.
import { parseSubagentCatalog, type SubagentInfo } from './delegation';
import { asRecord } from './json';

interface SessionFacts {
  cwd: string | null;
  modeIds: Set<string> | null;
  configOptionTypes: Map<string, string> | null;
  availableSubagents: SubagentInfo[] | null;
}

function readModeIds(modes: unknown): Set<string> | null {
  const available = asRecord(modes)?.availableModes;
  if (!Array.isArray(available)) return null;
  return new Set(available.map((mode) => asRecord(mode)?.id).filter((id): id is string => typeof id === 'string'));
}

function readConfigOptionTypes(options: unknown): Map<string, string> | null {
  if (!Array.isArray(options)) return null;
  const types = new Map<string, string>();
  for (const option of options) {
    const record = asRecord(option);
    if (record && typeof record.id === 'string') types.set(record.id, typeof record.type === 'string' ? record.type : 'select');
  }
  return types;
}

export class SessionFeatures {
  private readonly sessions = new Map<string, SessionFacts>();

  private factsFor(sessionId: string): SessionFacts {
    let facts = this.sessions.get(sessionId);
    if (!facts) {
      facts = { cwd: null, modeIds: null, configOptionTypes: null, availableSubagents: null };
      this.sessions.set(sessionId, facts);
    }
    return facts;
  }

  /** From a session/new, session/load or session/resume exchange. Returns true when the subagent catalog changed. */
  recordSetup(sessionId: string, cwd: string | null, response: unknown): boolean {
    const facts = this.factsFor(sessionId);
    const result = asRecord(response) ?? {};
    if (cwd) facts.cwd = cwd;
    if ('modes' in result) facts.modeIds = readModeIds(result.modes);
    if ('configOptions' in result) facts.configOptionTypes = readConfigOptionTypes(result.configOptions);
    if ('availableSubagents' in result) {
      facts.availableSubagents = parseSubagentCatalog(result.availableSubagents) ?? null;
      return true;
    }
    return false;
  }

  /** From a set_config_option response or a config_option_update. */
  recordConfigOptions(sessionId: string, configOptions: unknown): void {
    const types = readConfigOptionTypes(configOptions);
    if (types) this.factsFor(sessionId).configOptionTypes = types;
  }

  /** Applies a `session/update` notification's params. Returns true when the subagent catalog changed. */
  applyUpdate(params: unknown): boolean {
    const record = asRecord(params);
    const update = asRecord(record?.update);
    if (!record || typeof record.sessionId !== 'string' || !update) return false;
    switch (update.sessionUpdate) {
      case 'available_subagents_update': {
        const catalog = parseSubagentCatalog(update.availableSubagents);
        if (!catalog) return false;
        this.factsFor(record.sessionId).availableSubagents = catalog;
        return true;
      }
      case 'config_option_update':
        this.recordConfigOptions(record.sessionId, update.configOptions);
        return false;
      default:
        return false;
    }
  }

  cwdOf(sessionId: string): string | undefined {
    return this.sessions.get(sessionId)?.cwd ?? undefined;
  }

  /** Mode ids advertised for the session, or undefined when the agent advertised no modes for it. */
  modeIdsOf(sessionId: string): ReadonlySet<string> | undefined {
    return this.sessions.get(sessionId)?.modeIds ?? undefined;
  }

  /** The advertised type of a config option (`select`, `boolean`, ...), or undefined when not advertised. */
  configOptionType(sessionId: string, configId: string): string | undefined {
    return this.sessions.get(sessionId)?.configOptionTypes?.get(configId);
  }

  /** The catalog in agent order; undefined when the agent has not sent one for this session. */
  availableSubagents(sessionId: string): readonly SubagentInfo[] | undefined {
    return this.sessions.get(sessionId)?.availableSubagents ?? undefined;
  }

  forget(sessionId: string): void {
    this.sessions.delete(sessionId);
  }
}
