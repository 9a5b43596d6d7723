// What `activate()` hands to other extensions. Permission answers gate an agent's writes and commands, so
// only the extension-host tests (extension mode Test: VS Code was started with --extensionTestsPath) get
// them; any other installed extension sees the API without them.
export const TEST_ONLY_API_KEYS = ['pendingPermissions', 'answerPermission'] as const;

export type ApiMode = 'production' | 'development' | 'test';

export function publicApiFor<T extends object>(api: T, mode: ApiMode): T | Omit<T, (typeof TEST_ONLY_API_KEYS)[number]> {
  if (mode === 'test') return api;
  const copy: Record<string, unknown> = { ...(api as Record<string, unknown>) };
  for (const key of TEST_ONLY_API_KEYS) delete copy[key];
  return copy as Omit<T, (typeof TEST_ONLY_API_KEYS)[number]>;
}
