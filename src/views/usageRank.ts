// The one place the tree reads how much a session has used, for sorting by cost: the store's normalised usage
// (`spend`, src/store/usage.ts), never a price the client made up.
import type { SessionView } from '../store/model';

/** A session's reported usage as one comparable figure: its cost when reported, else its tokens. */
export interface UsageRank {
  readonly unit: 'cost' | 'tokens';
  readonly amount: number;
}

export function usageRank(session: Pick<SessionView, 'spend'>): UsageRank | undefined {
  const spend = session.spend;
  if (!spend) return undefined;
  if (spend.cost && Number.isFinite(spend.cost.amount)) return { unit: 'cost', amount: spend.cost.amount };
  const tokens = spend.totalTokens ?? (spend.inputTokens !== undefined || spend.outputTokens !== undefined ? (spend.inputTokens ?? 0) + (spend.outputTokens ?? 0) : spend.contextUsed);
  return tokens !== undefined && Number.isFinite(tokens) ? { unit: 'tokens', amount: tokens } : undefined;
}
