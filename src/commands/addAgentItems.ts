// The rows of Subchats: Add Agent: registry agents (name, version, how they run, their description, whether one
// is already in `subchats.agents`), or the built-in presets when the registry cannot be read. Pure: no window.
import type * as vscode from 'vscode';
import type { AgentConfig } from '../acp/agentProcess';
import { installPlan, isAddedAs, type AgentSettingEntry, type InstallPlan } from '../host/registry/registryEntry';
import type { RegistryAgent } from '../host/registry/registryFormat';
import { inertUiText } from '../host/uiText';
import { t } from '../presentation';

/** What a row adds: a registry agent (planned for this os-arch) or a preset as it stands. */
export type AddAgentChoice =
  | { readonly from: 'registry'; readonly agent: RegistryAgent; readonly plan: InstallPlan }
  | { readonly from: 'preset'; readonly entry: AgentSettingEntry };

export interface AddAgentItem extends vscode.QuickPickItem {
  readonly choice: AddAgentChoice;
}

/** An entry of `subchats.agents` as the setting holds it (registryId kept for matching). */
export interface ConfiguredAgent {
  readonly id: string;
  readonly command: string;
  readonly args?: readonly string[];
  readonly registryId?: string;
}

/** The raw setting's entries that have an id and a command; the rest are not matched against. */
export function configuredAgents(raw: unknown): ConfiguredAgent[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item: unknown) => {
    const entry = item as Partial<Record<keyof ConfiguredAgent, unknown>> | null;
    if (typeof entry !== 'object' || entry === null || typeof entry.id !== 'string' || typeof entry.command !== 'string') return [];
    const args = Array.isArray(entry.args) ? entry.args.filter((arg): arg is string => typeof arg === 'string') : [];
    return [{ id: entry.id, command: entry.command, args, ...(typeof entry.registryId === 'string' ? { registryId: entry.registryId } : {}) }];
  });
}

const HOW: Readonly<Record<InstallPlan['kind'], (plan: InstallPlan) => string>> = {
  ready: (plan) => (plan.kind === 'ready' ? t('runs with {0}', plan.entry.command) : ''),
  download: () => t('download'),
  unavailable: () => t('not for this platform'),
};

function addedMark(added: boolean, label: string): string {
  return added ? `$(check) ${label}` : label;
}

export function registryItems(agents: readonly RegistryAgent[], configured: readonly ConfiguredAgent[], osArch: string | undefined): AddAgentItem[] {
  return agents.map((agent) => {
    const plan = installPlan(agent, osArch);
    const added = configured.some((entry) => isAddedAs(agent, entry, osArch));
    const description = [agent.version ? `v${inertUiText(agent.version, 40)}` : undefined, HOW[plan.kind](plan), added ? t('added') : undefined].filter(Boolean).join(' · ');
    return { label: addedMark(added, inertUiText(agent.name, 80)), description, detail: inertUiText(agent.description, 200) || undefined, choice: { from: 'registry', agent, plan } };
  });
}

export function presetItems(presets: readonly AgentConfig[], configured: readonly ConfiguredAgent[]): AddAgentItem[] {
  return presets.map((preset) => {
    const args = preset.args ?? [];
    const added = configured.some((entry) => entry.id === preset.id || (entry.command === preset.command && (entry.args ?? []).join('\u0000') === args.join('\u0000')));
    const entry: AgentSettingEntry = { id: preset.id, name: preset.name, command: preset.command, args };
    return { label: addedMark(added, preset.name), description: [t('built-in preset'), added ? t('added') : undefined].filter(Boolean).join(' · '), detail: [preset.command, ...args].join(' '), choice: { from: 'preset', entry } };
  });
}
