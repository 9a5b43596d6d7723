// The registry as Add Agent shows it: fetched from the configured URL at most once an hour (kept in globalState),
// fetched again on Refresh, and read leniently (registryFormat).
import { boundedFetch } from './boundedFetch';
import { readRegistry, type Registry } from './registryFormat';

export const DEFAULT_REGISTRY_URL = 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json';
const CACHE_KEY = 'subchats.registryCache';
const CACHE_MS = 60 * 60 * 1000;
const LIMITS = { timeoutMs: 10_000, maxBytes: 8 * 1024 * 1024 };

/** The part of vscode.Memento the cache uses (globalState in the extension). */
export interface CacheStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

interface CachedRegistry {
  readonly url: string;
  readonly fetchedAt: number;
  readonly text: string;
}

export interface LoadedRegistry extends Registry {
  readonly fetchedAt: number;
  readonly fromCache: boolean;
}

export interface RegistrySourceOptions {
  readonly url: string;
  readonly cache: CacheStore;
  /** Skip the cache (the picker's Refresh). */
  readonly refresh?: boolean;
  readonly now?: () => number;
  readonly fetchText?: (url: string) => Promise<string>;
}

const fetchText = async (url: string) => (await boundedFetch(url, LIMITS)).toString('utf8');

function parse(text: string): Registry {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error('the registry answer is not JSON');
  }
  return readRegistry(raw);
}

/** Throws with a sentence for the user when the registry cannot be had (offline, bad answer). */
export async function loadRegistry(options: RegistrySourceOptions): Promise<LoadedRegistry> {
  const now = options.now?.() ?? Date.now();
  const cached = options.cache.get<CachedRegistry>(CACHE_KEY);
  if (!options.refresh && cached?.url === options.url && now - cached.fetchedAt < CACHE_MS && typeof cached.text === 'string') {
    try {
      return { ...parse(cached.text), fetchedAt: cached.fetchedAt, fromCache: true };
    } catch {
      // A cache that no longer reads is fetched again.
    }
  }
  const text = await (options.fetchText ?? fetchText)(options.url);
  const registry = parse(text);
  await options.cache.update(CACHE_KEY, { url: options.url, fetchedAt: now, text } satisfies CachedRegistry);
  return { ...registry, fetchedAt: now, fromCache: false };
}
