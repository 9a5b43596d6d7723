// Reads the ACP agent registry's `registry.json` leniently: unknown fields are ignored, an agent without a usable
// distribution or without an id and name is dropped with the reason, and nothing else stops the rest being read.
import { isObject, type JsonObject } from '../../store/wireMessage';

/** How a registry agent runs: a package `npx` or `uvx` fetches, or an archive per os-arch. */
export interface PackageDistribution {
  readonly package: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

export interface BinaryTarget {
  /** Where the archive (or the bare executable) is downloaded from. */
  readonly archive: string;
  /** The executable inside the unpacked archive, relative to its root. */
  readonly cmd: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Hex digest, when the registry gives one. */
  readonly sha256?: string;
}

export interface RegistryAgent {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly npx?: PackageDistribution;
  readonly uvx?: PackageDistribution;
  /** Keyed by os-arch (`linux-x86_64`, `darwin-aarch64`, `windows-x86_64`, …). */
  readonly binary?: Readonly<Record<string, BinaryTarget>>;
}

interface DroppedAgent {
  readonly index: number;
  readonly id?: string;
  readonly reason: string;
}

export interface Registry {
  readonly agents: readonly RegistryAgent[];
  readonly dropped: readonly DroppedAgent[];
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function stringRecord(value: unknown): Record<string, string> {
  const record: Record<string, string> = {};
  if (isObject(value)) for (const [key, item] of Object.entries(value)) if (typeof item === 'string') record[key] = item;
  return record;
}

function packageDistribution(value: unknown): PackageDistribution | undefined {
  if (!isObject(value)) return undefined;
  const pkg = nonEmpty(value['package']);
  return pkg ? { package: pkg, args: strings(value['args']), env: stringRecord(value['env']) } : undefined;
}

function binaryTarget(value: unknown): BinaryTarget | undefined {
  if (!isObject(value)) return undefined;
  const archive = nonEmpty(value['archive']) ?? nonEmpty(value['url']);
  const cmd = nonEmpty(value['cmd']);
  if (!archive || !cmd) return undefined;
  const sha256 = nonEmpty(value['sha256'])?.toLowerCase();
  return { archive, cmd, args: strings(value['args']), env: stringRecord(value['env']), ...(sha256 && /^[0-9a-f]{64}$/.test(sha256) ? { sha256 } : {}) };
}

function binaryTargets(value: unknown): Record<string, BinaryTarget> | undefined {
  if (!isObject(value)) return undefined;
  const targets: Record<string, BinaryTarget> = {};
  for (const [key, item] of Object.entries(value)) {
    const target = binaryTarget(item);
    if (target) targets[key] = target;
  }
  return Object.keys(targets).length > 0 ? targets : undefined;
}

function readAgent(entry: JsonObject): RegistryAgent | string {
  const id = nonEmpty(entry['id']);
  if (!id) return 'no "id"';
  const distribution = isObject(entry['distribution']) ? entry['distribution'] : {};
  const npx = packageDistribution(distribution['npx']);
  const uvx = packageDistribution(distribution['uvx']);
  const binary = binaryTargets(distribution['binary']);
  if (!npx && !uvx && !binary) return 'no npx, uvx or binary distribution Subchats can read';
  return {
    id,
    name: nonEmpty(entry['name']) ?? id,
    version: nonEmpty(entry['version']) ?? '',
    description: nonEmpty(entry['description']) ?? '',
    ...(npx ? { npx } : {}),
    ...(uvx ? { uvx } : {}),
    ...(binary ? { binary } : {}),
  };
}

export function readRegistry(raw: unknown): Registry {
  const list = isObject(raw) ? raw['agents'] : undefined;
  if (!Array.isArray(list)) throw new Error('the registry has no "agents" list');
  const agents: RegistryAgent[] = [];
  const dropped: DroppedAgent[] = [];
  const seen = new Set<string>();
  list.forEach((item, index) => {
    const agent = isObject(item) ? readAgent(item) : 'not an object';
    const id = isObject(item) ? nonEmpty(item['id']) : undefined;
    if (typeof agent === 'string') dropped.push({ index, ...(id ? { id } : {}), reason: agent });
    else if (seen.has(agent.id)) dropped.push({ index, id: agent.id, reason: 'the same id again' });
    else {
      seen.add(agent.id);
      agents.push(agent);
    }
  });
  return { agents, dropped };
}
