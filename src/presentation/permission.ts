// What the user answered to a permission request, in words: the same in the card and in a collapsed preview.
import type { PermissionEntry } from '../protocol/transcript';
import { t } from './l10n';

/** "Allowed: Allow once", "Denied: Reject", "Waiting for you", or why there is no answer. */
export function permissionAnswer(entry: Pick<PermissionEntry, 'outcome' | 'optionId' | 'options'>): string {
  switch (entry.outcome) {
    case 'pending':
      return t('Waiting for you');
    case 'selected': {
      const option = entry.options.find((o) => o.optionId === entry.optionId);
      const name = option?.name ?? entry.optionId ?? t('an unknown option');
      // The option's kind says what the choice does; its name is the agent's word for it.
      if (option?.kind.startsWith('reject')) return t('Denied: {0}', name);
      if (option?.kind.startsWith('allow')) return t('Allowed: {0}', name);
      return t('Answered: {0}', name);
    }
    case 'cancelled':
      return t('Cancelled without an answer');
    default:
      return t('The answer could not be delivered');
  }
}
