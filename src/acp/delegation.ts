// Prompt delegation from the draft subagent catalog (ACP PR #855): which agents accept it and which
// `delegation` objects are valid to send. Pure functions; nothing here touches the wire.
import { asRecord, isAdvertised } from './json';

const DELEGATION_POLICIES = ['auto', 'disable', 'prefer', 'require'] as const;
const RUN_MODES = ['foreground', 'background'] as const;

type DelegationPolicy = (typeof DELEGATION_POLICIES)[number];
type SubagentRunMode = (typeof RUN_MODES)[number];

export interface PromptDelegation {
  readonly policy: DelegationPolicy;
  readonly subagentId?: string;
  readonly runMode?: SubagentRunMode;
}

export interface SubagentInfo {
  readonly id: string;
  readonly title: string;
  readonly description?: string | null;
}

/** What `agentCapabilities.sessionCapabilities.subagents` advertises. */
export interface DelegationSupport {
  readonly promptDelegation: boolean;
  readonly background: boolean;
}

export function delegationSupport(agentCapabilities: unknown): DelegationSupport {
  const subagents = asRecord(asRecord(asRecord(agentCapabilities)?.sessionCapabilities)?.subagents);
  return { promptDelegation: isAdvertised(subagents?.promptDelegation), background: isAdvertised(subagents?.background) };
}

/** Reads `availableSubagents` leniently: entries without a string id are dropped, agent order is kept. */
export function parseSubagentCatalog(value: unknown): SubagentInfo[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const catalog: SubagentInfo[] = [];
  for (const item of value) {
    const entry = asRecord(item);
    if (!entry || typeof entry.id !== 'string' || !entry.id) continue;
    const title = typeof entry.title === 'string' && entry.title ? entry.title : typeof entry.name === 'string' && entry.name ? entry.name : entry.id;
    const description = typeof entry.description === 'string' ? entry.description : null;
    catalog.push({ id: entry.id, title, description });
  }
  return catalog;
}

/**
 * Returns the problems with `delegation` (empty = valid). `availableSubagents`, when known, must contain
 * any named `subagentId`.
 */
export function validateDelegation(
  delegation: unknown,
  support: DelegationSupport,
  availableSubagents?: readonly SubagentInfo[],
): string[] {
  const problems: string[] = [];
  const value = asRecord(delegation);
  if (!value) return ['delegation must be an object'];
  if (!support.promptDelegation) problems.push('the agent does not advertise sessionCapabilities.subagents.promptDelegation');

  const policy = value.policy;
  const knownPolicy = (DELEGATION_POLICIES as readonly unknown[]).includes(policy);
  if (!knownPolicy) problems.push(`policy must be one of ${DELEGATION_POLICIES.join(', ')} (got ${JSON.stringify(policy)})`);
  const targeted = policy === 'prefer' || policy === 'require';

  if (value.subagentId !== undefined) {
    if (typeof value.subagentId !== 'string' || !value.subagentId) {
      problems.push('subagentId must be a non-empty string');
    } else if (knownPolicy && !targeted) {
      problems.push(`subagentId is only allowed with policy prefer or require (got ${String(policy)})`);
    } else if (availableSubagents && !availableSubagents.some((agent) => agent.id === value.subagentId)) {
      const ids = availableSubagents.map((agent) => agent.id).join(', ') || 'none';
      problems.push(`unknown subagent "${value.subagentId}" (available: ${ids})`);
    }
  }

  if (value.runMode !== undefined) {
    if (!(RUN_MODES as readonly unknown[]).includes(value.runMode)) {
      problems.push(`runMode must be foreground or background (got ${JSON.stringify(value.runMode)})`);
    } else if (knownPolicy && !targeted) {
      problems.push(`runMode is only allowed with policy prefer or require (got ${String(policy)})`);
    } else if (value.runMode === 'background' && !support.background) {
      problems.push('runMode background needs sessionCapabilities.subagents.background, which the agent does not advertise');
    }
  }

  const extra = Object.keys(value).filter((key) => !['policy', 'subagentId', 'runMode', '_meta'].includes(key));
  if (extra.length) problems.push(`unknown delegation field(s): ${extra.join(', ')}`);
  return problems;
}
