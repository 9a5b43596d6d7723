// The ACP agent registry as Add Agent reads it: lenient reading, the entry each distribution makes, the os-arch
// key, the hour-long cache, and the rows the picker shows (added ones marked).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { configuredAgents, presetItems, registryItems } from '../../src/commands/addAgentItems';
import { platformKey } from '../../src/host/registry/platformKey';
import { installPlan, pinnedPackage, withAgentEntry } from '../../src/host/registry/registryEntry';
import { readRegistry, type RegistryAgent } from '../../src/host/registry/registryFormat';
import { loadRegistry, type CacheStore } from '../../src/host/registry/registrySource';

const SHA = 'a'.repeat(64);
const RAW = {
  version: '1.0.0',
  somethingNew: { ignored: true },
  agents: [
    { id: 'claude-acp', name: 'Claude Agent', version: '0.5.1', description: 'Claude via ACP', icon: 'x.svg', authors: ['A'], distribution: { npx: { package: '@zed-industries/claude-code-acp', args: ['--acp'], env: { A: '1', B: 2 } } }, extra: 1 },
    { id: 'fast-agent', name: 'fast-agent', version: '0.3.0', distribution: { uvx: { package: 'fast-agent-acp', args: ['-x'] } } },
    { id: 'bin-agent', name: 'Bin Agent', version: '2.0.0', distribution: { binary: { 'linux-x86_64': { archive: 'https://example.com/bin-agent-linux.tar.gz', cmd: './bin-agent', args: ['acp'], sha256: SHA.toUpperCase() }, 'darwin-aarch64': { archive: 'https://example.com/bin-agent-mac.zip', cmd: 'bin-agent' }, 'windows-x86_64': { cmd: 'no-archive.exe' } } } },
    { id: 'future-agent', name: 'Future', distribution: { docker: { image: 'x' } } },
    { name: 'No id', distribution: { npx: { package: 'x' } } },
    'not even an object',
    { id: 'claude-acp', name: 'Duplicate', distribution: { npx: { package: 'dup' } } },
  ],
};

test('the registry is read leniently: unknown fields ignored, bad entries dropped with a reason', () => {
  const registry = readRegistry(RAW);
  assert.deepEqual(registry.agents.map((a) => a.id), ['claude-acp', 'fast-agent', 'bin-agent']);
  assert.deepEqual(registry.dropped, [
    { index: 3, id: 'future-agent', reason: 'no npx, uvx or binary distribution Subchats can read' },
    { index: 4, reason: 'no "id"' },
    { index: 5, reason: 'not an object' },
    { index: 6, id: 'claude-acp', reason: 'the same id again' },
  ]);
  const [claude, , bin] = registry.agents;
  assert.deepEqual(claude!.npx, { package: '@zed-industries/claude-code-acp', args: ['--acp'], env: { A: '1' } });
  assert.equal(claude!.description, 'Claude via ACP');
  assert.deepEqual(Object.keys(bin!.binary!), ['linux-x86_64', 'darwin-aarch64'], 'a target without an archive is left out');
  assert.equal(bin!.binary!['linux-x86_64']!.sha256, SHA, 'sha256 kept, lower case');
  assert.equal(bin!.binary!['darwin-aarch64']!.sha256, undefined);
});

test('a registry without an agents list is an error (the picker then offers the presets)', () => {
  assert.throws(() => readRegistry({ version: 1 }), /no "agents" list/);
  assert.throws(() => readRegistry([]), /no "agents" list/);
});

test('the os-arch key of the registry', () => {
  assert.equal(platformKey('linux', 'x64'), 'linux-x86_64');
  assert.equal(platformKey('darwin', 'arm64'), 'darwin-aarch64');
  assert.equal(platformKey('win32', 'x64'), 'windows-x86_64');
  assert.equal(platformKey('linux', 'arm64'), 'linux-aarch64');
  assert.equal(platformKey('freebsd', 'x64'), undefined);
  assert.equal(platformKey('linux', 'ia32'), undefined);
});

test('npx entries run npx -y package@version args; uvx entries uvx package@version args', () => {
  const [claude, fast] = readRegistry(RAW).agents;
  assert.deepEqual(installPlan(claude!, 'linux-x86_64'), {
    kind: 'ready',
    entry: { id: 'claude-acp', name: 'Claude Agent', command: 'npx', args: ['-y', '@zed-industries/claude-code-acp@0.5.1', '--acp'], env: { A: '1' }, registryId: 'claude-acp', registryVersion: '0.5.1' },
  });
  assert.deepEqual(installPlan(fast!, undefined), {
    kind: 'ready',
    entry: { id: 'fast-agent', name: 'fast-agent', command: 'uvx', args: ['fast-agent-acp@0.3.0', '-x'], registryId: 'fast-agent', registryVersion: '0.3.0' },
  });
});

test('a package that already names its version is not pinned twice', () => {
  assert.equal(pinnedPackage('@scope/pkg@1.2.3', '9'), '@scope/pkg@1.2.3');
  assert.equal(pinnedPackage('pkg@1', '9'), 'pkg@1');
  assert.equal(pinnedPackage('tool==1.0', '9'), 'tool==1.0');
  assert.equal(pinnedPackage('@scope/pkg', '2.0.0'), '@scope/pkg@2.0.0');
  assert.equal(pinnedPackage('pkg', ''), 'pkg');
});

test('a binary is a download for this os-arch, its command set once it is unpacked; other platforms are told why not', () => {
  const bin = readRegistry(RAW).agents[2]!;
  const plan = installPlan(bin, 'linux-x86_64');
  assert.equal(plan.kind, 'download');
  if (plan.kind !== 'download') return;
  assert.equal(plan.target.archive, 'https://example.com/bin-agent-linux.tar.gz');
  assert.deepEqual(plan.entryFor('/store/agents/bin-agent/2.0.0/bin-agent'), { id: 'bin-agent', name: 'Bin Agent', command: '/store/agents/bin-agent/2.0.0/bin-agent', args: ['acp'], registryId: 'bin-agent', registryVersion: '2.0.0' });
  assert.deepEqual(installPlan(bin, 'windows-x86_64'), { kind: 'unavailable', reason: 'no build for windows-x86_64 (the registry has linux-x86_64, darwin-aarch64)' });
  assert.equal(installPlan(bin, undefined).kind, 'unavailable');
});

test('choosing an agent again replaces its entry; other entries stay as they are', () => {
  const entry = { id: 'claude-acp', name: 'Claude Agent', command: 'npx', args: ['-y', 'x@2'], registryId: 'claude-acp' };
  const mine = { id: 'mine', command: 'mine', custom: true };
  assert.deepEqual(withAgentEntry(undefined, entry), [entry]);
  assert.deepEqual(withAgentEntry([mine, { id: 'old-name', registryId: 'claude-acp', command: 'npx' }], entry), [mine, entry]);
  assert.deepEqual(withAgentEntry([{ id: 'claude-acp', command: 'npx' }, mine], entry), [entry, mine]);
});

test('the rows: added agents marked (by registry id or by the same command), how each runs, text made inert', () => {
  const agents: RegistryAgent[] = [...readRegistry(RAW).agents, { id: 'evil', name: 'Evil [click](command:workbench.action.terminal.new) $(alert)', version: '1', description: 'desc', npx: { package: 'evil', args: [], env: {} } }];
  const configured = configuredAgents([{ id: 'my-claude', command: 'npx', args: ['-y', '@zed-industries/claude-code-acp@0.5.1', '--acp'] }, { id: 'x', command: 'y', registryId: 'bin-agent' }, 'junk', { id: 'no-command' }]);
  assert.equal(configured.length, 2);
  const rows = registryItems(agents, configured, 'linux-x86_64');
  assert.deepEqual(rows.map((r) => [r.label, r.description]), [
    ['$(check) Claude Agent', 'v0.5.1 · runs with npx · added'],
    ['fast-agent', 'v0.3.0 · runs with uvx'],
    ['$(check) Bin Agent', 'v2.0.0 · download · added'],
    ['Evil [click] (command:workbench.action.terminal.new) $ (alert)', 'v1 · runs with npx'],
  ]);
  assert.equal(rows[0]!.detail, 'Claude via ACP');
  assert.equal(rows[1]!.detail, undefined);
});

test('preset rows (the offline fallback) are marked when the setting has them', () => {
  const rows = presetItems([{ id: 'codex', name: 'Codex', command: 'npx', args: ['-y', 'codex@1'] }, { id: 'gemini', name: 'Gemini CLI', command: 'gemini', args: ['--acp'] }], configuredAgents([{ id: 'gemini', command: 'gemini' }]));
  assert.deepEqual(rows.map((r) => [r.label, r.description, r.detail]), [
    ['Codex', 'built-in preset', 'npx -y codex@1'],
    ['$(check) Gemini CLI', 'built-in preset · added', 'gemini --acp'],
  ]);
  assert.deepEqual(rows[0]!.choice, { from: 'preset', entry: { id: 'codex', name: 'Codex', command: 'npx', args: ['-y', 'codex@1'] } });
});

class MemoryCache implements CacheStore {
  readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, value);
  }
}

test('the registry is fetched at most once an hour per URL; Refresh fetches again; a bad answer is an error', async () => {
  const cache = new MemoryCache();
  let now = 1_000_000;
  const fetched: string[] = [];
  const fetchText = async (url: string) => (fetched.push(url), JSON.stringify(RAW));
  const load = (options: { url?: string; refresh?: boolean } = {}) => loadRegistry({ url: options.url ?? 'https://r/1', cache, now: () => now, fetchText, ...(options.refresh ? { refresh: true } : {}) });
  assert.equal((await load()).fromCache, false);
  now += 59 * 60 * 1000;
  const cached = await load();
  assert.equal(cached.fromCache, true);
  assert.equal(cached.agents.length, 3);
  assert.equal((await load({ refresh: true })).fromCache, false);
  assert.equal((await load({ url: 'https://r/2' })).fromCache, false, 'another URL is not answered from the cache');
  now += 61 * 60 * 1000;
  assert.equal((await load({ url: 'https://r/2' })).fromCache, false, 'an hour later it is fetched again');
  assert.equal(fetched.length, 4);
  await assert.rejects(loadRegistry({ url: 'https://r/3', cache, refresh: true, fetchText: async () => '<html>' }), /not JSON/);
  await assert.rejects(loadRegistry({ url: 'https://r/3', cache, refresh: true, fetchText: async () => '{"agents": 3}' }), /no "agents" list/);
});
