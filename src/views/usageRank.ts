// The one place the tree reads how much a session has used, for sorting by cost. It reads the raw usage the
// store keeps today (`session.usage`: ACP usage_update's `used`, `size` and `cost {amount, currency}`); when the
// store keeps a normalised usage per session, only this function changes.
import type { SessionView } from '../store/model';

/** A session's reported usage as one comparable figure: its cost when reported, else the tokens used. */
export interface UsageRank {
  readonly unit: 'cost' | 'tokens';
  readonly amount: number;
}

export function usageRank(session: Pick<SessionView, 'usage'>): UsageRank | undefined {
  const usage = session.usage;
  if (!usage) return undefined;
  const cost = usage['cost'];
  const amount = typeof cost === 'object' && cost !== null ? (cost as Record<string, unknown>)['amount'] : undefined;
  if (typeof amount === 'number' && Number.isFinite(amount)) return { unit: 'cost', amount };
  const used = usage['used'];
  return typeof used === 'number' && Number.isFinite(used) ? { unit: 'tokens', amount: used } : undefined;
}
