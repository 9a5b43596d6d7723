// What `activate()` hands to other extensions. Permission answers gate an agent's writes and commands, so
// only the extension-host tests (extension mode Test: VS Code was started with --extensionTestsPath) get
// them. Starting agents, sending prompts, cancelling and reading sessions or transcripts act for the user, so
// any other extension reaches them only through `requestAccess` (the user's consent, apiConsent.ts); read-only
// facts (version, a session's verdicts, change events) stay open.
const TEST_ONLY_API_KEYS = ['pendingPermissions', 'answerPermission'] as const;
const CONSENTED_API_KEYS = ['startSession', 'prompt', 'send', 'cancel', 'snapshot', 'transcript'] as const;
/** The consented methods that return a promise (a refusal rejects it; the others throw). */
const ASYNC_KEYS: ReadonlySet<string> = new Set(['startSession', 'prompt', 'send', 'cancel']);

export type ApiMode = 'production' | 'development' | 'test';
type Hidden = (typeof TEST_ONLY_API_KEYS)[number] | (typeof CONSENTED_API_KEYS)[number];

export function publicApiFor<T extends object>(api: T, mode: ApiMode): T | Omit<T, Hidden> {
  if (mode === 'test') return api;
  const copy: Record<string, unknown> = { ...(api as Record<string, unknown>) };
  for (const key of [...TEST_ONLY_API_KEYS, ...CONSENTED_API_KEYS]) delete copy[key];
  return copy as Omit<T, Hidden>;
}

type Consented<T> = Pick<T, Extract<keyof T, (typeof CONSENTED_API_KEYS)[number]>>;

/** The consented methods of `api`, each checking `allowed()` at every call (access can be revoked at any time). */
export function consentedApi<T extends object>(api: T, allowed: () => boolean, refusal: () => Error): Consented<T> {
  const handle: Record<string, unknown> = {};
  for (const key of CONSENTED_API_KEYS) {
    const method = (api as Record<string, unknown>)[key];
    if (typeof method !== 'function') continue;
    handle[key] = (...args: unknown[]): unknown => {
      if (!allowed()) {
        const error = refusal();
        if (ASYNC_KEYS.has(key)) return Promise.reject(error);
        throw error;
      }
      return (method as (...a: unknown[]) => unknown).apply(api, args);
    };
  }
  return handle as Consented<T>;
}
