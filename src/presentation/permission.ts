// What the user answered to a permission request, in words: the same in the card and in a collapsed preview.
import type { PermissionEntry } from '../protocol/transcript';

/** "Allowed: Allow once", "Denied: Reject", "Waiting for you", or why there is no answer. */
export function permissionAnswer(entry: Pick<PermissionEntry, 'outcome' | 'optionId' | 'options'>): string {
  switch (entry.outcome) {
    case 'pending':
      return 'Waiting for you';
    case 'selected': {
      const option = entry.options.find((o) => o.optionId === entry.optionId);
      const name = option?.name ?? entry.optionId ?? 'an unknown option';
      // The option's kind says what the choice does; its name is the agent's word for it.
      if (option?.kind.startsWith('reject')) return `Denied: ${name}`;
      if (option?.kind.startsWith('allow')) return `Allowed: ${name}`;
      return `Answered: ${name}`;
    }
    case 'cancelled':
      return 'Cancelled without an answer';
    default:
      return 'The answer could not be delivered';
  }
}
