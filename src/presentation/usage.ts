// What a session spent, in words, for the tree and the chat alike: "1,234 tokens · 0.0024 USD · gpt-5.4".
// Only what the agent reported: tokens where it reported tokens, a cost where it reported a cost, never a
// price worked out from tokens. And what a session and its subagents spent together, never counted twice.
import type { SessionUsage, UsageCost, UsageFigures } from '../protocol/usage';
import { t } from './l10n';

function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** An amount as reported, to two significant digits below 1 (0.0024 USD), else to the cent. */
export function costText(cost: UsageCost): string {
  const { amount } = cost;
  const decimals = amount > 0 && amount < 1 ? Math.min(10, Math.max(2, 1 - Math.floor(Math.log10(amount)))) : 2;
  const shown = amount.toFixed(decimals).replace(/(\.\d\d\d*?)0+$/, '$1');
  return cost.currency ? `${shown} ${cost.currency}` : shown;
}

function tokensText(figures: UsageFigures): string | undefined {
  if (figures.totalTokens !== undefined) return t('{0} tokens', count(figures.totalTokens));
  const split = [figures.inputTokens !== undefined ? t('{0} in', count(figures.inputTokens)) : '', figures.outputTokens !== undefined ? t('{0} out', count(figures.outputTokens)) : ''].filter(Boolean);
  return split.length > 0 ? t('{0} tokens', split.join(' / ')) : undefined;
}

/** Tokens, cost and model, each where reported: "1,234 tokens · 0.02 USD · gpt-5.4" (empty when none was). */
export function usageText(figures: UsageFigures | null | undefined): string {
  if (!figures) return '';
  const parts = [tokensText(figures), figures.cost ? costText(figures.cost) : undefined, figures.model];
  return parts.filter((part): part is string => part !== undefined && part !== '').join(' · ');
}

/** The context window as reported (`usage_update`): "101 / 200,000 tokens" (empty when not reported). */
export function contextText(figures: UsageFigures | null | undefined): string {
  if (figures?.contextUsed === undefined) return '';
  return figures.contextSize !== undefined ? t('{0} / {1} tokens', count(figures.contextUsed), count(figures.contextSize)) : t('{0} tokens', count(figures.contextUsed));
}

/** A session in a subtree, as the usage rule reads it. */
export interface UsageNode {
  readonly usage: SessionUsage | null;
  readonly children: readonly UsageNode[];
}

/** What a session and its subagents spent, each part as far as it can be told without counting anything twice. */
export interface SubtreeUsage {
  /** The session's own report (which may or may not include its subagents': `own.includesSubagents`). */
  readonly own: SessionUsage | null;
  /** Its subagents' reports added up (null when none reported). */
  readonly subagents: UsageFigures | null;
  /**
   * The session with its subagents: its own report when the wire says it includes them, its report plus theirs
   * when the wire says it excludes them; null when the wire does not say (then nothing is added up).
   */
  readonly total: UsageFigures | null;
  /** Some subagent reported without saying whether its own subagents are in it: theirs are not added to `subagents`. */
  readonly partial: boolean;
}

function add(a: UsageFigures | null, b: UsageFigures | null): UsageFigures | null {
  if (!a || !b) return a ?? b;
  const out: { -readonly [K in keyof UsageFigures]: UsageFigures[K] } = {};
  // A count adds up only where both reported it: a total missing a part would be a figure nobody reported.
  for (const field of ['totalTokens', 'inputTokens', 'outputTokens', 'cachedReadTokens'] as const) {
    const [x, y] = [a[field], b[field]];
    if (x !== undefined && y !== undefined) out[field] = x + y;
  }
  // Likewise a cost, and only in one currency (two are not converted).
  if (a.cost && b.cost && a.cost.currency === b.cost.currency) out.cost = { amount: a.cost.amount + b.cost.amount, ...(a.cost.currency ? { currency: a.cost.currency } : {}) };
  return out;
}

/** Only the figures that add up across sessions (tokens, cost): not the model, not the context window. */
function spent(usage: SessionUsage | null): UsageFigures | null {
  if (!usage) return null;
  const { totalTokens, inputTokens, outputTokens, cachedReadTokens, cost } = usage;
  const figures = { totalTokens, inputTokens, outputTokens, cachedReadTokens, cost };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(figures)) if (value !== undefined) out[key] = value;
  return Object.keys(out).length > 0 ? (out as UsageFigures) : null;
}

/** What a session and everything under it spent, counted once; `partial` when its subagents' part is unknown. */
export interface SpentBelow {
  readonly figures: UsageFigures | null;
  readonly partial: boolean;
}

/** The rule for one session, from its own report and what each child's subtree spent (see SpentBelow). */
export function usageWithChildren(own: SessionUsage | null, children: readonly SpentBelow[]): { readonly usage: SubtreeUsage; readonly spentBelow: SpentBelow } {
  const subagents = children.reduce<UsageFigures | null>((total, child) => add(total, child.figures), null);
  const partial = children.some((child) => child.partial);
  const ownSpent = spent(own);
  const includes = own?.includesSubagents;
  const total = ownSpent && includes === true ? ownSpent : ownSpent && includes === false && !partial ? add(ownSpent, subagents) : null;
  // What this subtree counts as, seen from its parent: a report that includes the subagents' stands for all;
  // one that excludes them adds theirs; one that does not say stands alone and leaves theirs uncounted.
  const spentBelow: SpentBelow = !ownSpent
    ? { figures: subagents, partial }
    : includes === true
      ? { figures: ownSpent, partial: false }
      : includes === false
        ? { figures: add(ownSpent, subagents), partial }
        : { figures: ownSpent, partial: subagents !== null || partial };
  return { usage: { own, subagents, total, partial }, spentBelow };
}

function usageOfNode(node: UsageNode): { readonly usage: SubtreeUsage; readonly spentBelow: SpentBelow } {
  return usageWithChildren(node.usage, node.children.map((child) => usageOfNode(child).spentBelow));
}

/**
 * The one rule for a subtree's usage: a report that already includes the subagents' usage is not added to
 * theirs; one that excludes it is; where the wire does not say, the two are kept apart (never summed).
 */
export function subtreeUsage(node: UsageNode): SubtreeUsage {
  return usageOfNode(node).usage;
}

/** The subtree's usage as lines (tree tooltip, chat header title); which figure is which said on each. */
export function subtreeUsageLines(usage: SubtreeUsage): string[] {
  const lines: string[] = [];
  const own = usageText(usage.own);
  const subagents = usageText(usage.subagents);
  const context = contextText(usage.own);
  if (!subagents) {
    if (own) lines.push(t('Usage: {0}', own));
  } else if (usage.own?.includesSubagents === true) {
    lines.push(t('This session with its subagents: {0}', own));
  } else if (usage.total) {
    lines.push(t('This session: {0}', own), t('With its subagents: {0}', usageText(usage.total)));
  } else {
    if (own) lines.push(t('This session (as reported): {0}', own));
    lines.push(usage.partial ? t('Subagents: {0} (not counting their own subagents)', subagents) : t('Subagents: {0}', subagents));
  }
  if (context) lines.push(t('Context: {0}', context));
  if (usage.own) lines.push(t('Reported by: {0}', usage.own.source));
  return lines;
}
