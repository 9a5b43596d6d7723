// What choosing a registry agent adds to `subchats.agents`: npx and uvx distributions become a command line at
// once; a binary distribution for this os-arch becomes a download to confirm first, then a command inside it.
import type { BinaryTarget, PackageDistribution, RegistryAgent } from './registryFormat';
import { t } from '../../presentation/l10n';

/** One entry of the `subchats.agents` setting as Add Agent writes it. */
export interface AgentSettingEntry {
  readonly id: string;
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  /** The registry agent it came from, so the picker can mark it as added. */
  readonly registryId?: string;
  readonly registryVersion?: string;
}

export type InstallPlan =
  | { readonly kind: 'ready'; readonly entry: AgentSettingEntry }
  | { readonly kind: 'download'; readonly target: BinaryTarget; readonly entryFor: (command: string) => AgentSettingEntry }
  | { readonly kind: 'unavailable'; readonly reason: string };

/** `pkg@version`, unless the package already names a version (`pkg@1.2.3`, `@scope/pkg@1`, `pkg==1.2`). */
export function pinnedPackage(pkg: string, version: string): string {
  const named = pkg.lastIndexOf('@') > 0 || pkg.includes('==');
  return named || !version ? pkg : `${pkg}@${version}`;
}

function baseEntry(agent: RegistryAgent, command: string, args: readonly string[], env: Readonly<Record<string, string>>): AgentSettingEntry {
  return {
    id: agent.id,
    name: agent.name,
    command,
    args,
    ...(Object.keys(env).length > 0 ? { env } : {}),
    registryId: agent.id,
    ...(agent.version ? { registryVersion: agent.version } : {}),
  };
}

const RUNNERS = {
  npx: (distribution: PackageDistribution, version: string) => ['-y', pinnedPackage(distribution.package, version), ...distribution.args],
  uvx: (distribution: PackageDistribution, version: string) => [pinnedPackage(distribution.package, version), ...distribution.args],
} as const;

/** npx first, then uvx (nothing to download ahead), then this machine's binary; `osArch` from platformKey(). */
export function installPlan(agent: RegistryAgent, osArch: string | undefined): InstallPlan {
  for (const runner of ['npx', 'uvx'] as const) {
    const distribution = agent[runner];
    if (distribution) return { kind: 'ready', entry: baseEntry(agent, runner, RUNNERS[runner](distribution, agent.version), distribution.env) };
  }
  const target = osArch ? agent.binary?.[osArch] : undefined;
  if (target) return { kind: 'download', target, entryFor: (command) => baseEntry(agent, command, target.args, target.env) };
  const offered = Object.keys(agent.binary ?? {}).join(', ');
  return { kind: 'unavailable', reason: t('no build for {0} (the registry has {1})', osArch ?? t('this platform'), offered || t('none')) };
}

/** Whether a configured entry is this registry agent: the same registry id, or the same command line. */
export function isAddedAs(agent: RegistryAgent, configured: { readonly registryId?: string; readonly id: string; readonly command: string; readonly args?: readonly string[] }, osArch: string | undefined): boolean {
  if (configured.registryId === agent.id) return true;
  const plan = installPlan(agent, osArch);
  if (plan.kind !== 'ready') return false;
  return plan.entry.command === configured.command && plan.entry.args.join('\u0000') === (configured.args ?? []).join('\u0000');
}

/** The `subchats.agents` list with `entry` in place of the one with its id (or registry id), else appended. */
export function withAgentEntry(raw: unknown, entry: AgentSettingEntry): unknown[] {
  const list = Array.isArray(raw) ? [...(raw as unknown[])] : [];
  const same = (item: unknown) => {
    const existing = item as { id?: unknown; registryId?: unknown } | null;
    return typeof existing === 'object' && existing !== null && (existing.id === entry.id || (entry.registryId !== undefined && existing.registryId === entry.registryId));
  };
  const at = list.findIndex(same);
  if (at === -1) return [...list, entry];
  list[at] = entry;
  return list.filter((item, index) => index === at || !same(item));
}
