// A plan entry in words: the same in the chat's plan card and in a child card's activity lines.
import type { PlanEntryItem } from '../protocol/transcript';
import { t } from './l10n';

/** "Plan removed" once the agent withdrew the plan (v2 `plan_removed`); otherwise how many of its steps are done. */
export function planSummary(plan: Pick<PlanEntryItem, 'entries' | 'removed'>): string {
  if (plan.removed === true) return t('Plan removed');
  const done = plan.entries.filter((step) => step.status === 'completed').length;
  return t('Plan · {0}/{1} done', done, plan.entries.length);
}
