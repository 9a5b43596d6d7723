// What a chat shows when host and webview speak different protocol versions (the extension was updated under
// it): the host's feed sync says it to a page of another version, the webview's mirror to a host of another.
import { t } from './l10n';

export function protocolMismatchReason(): string {
  return t('Subchats was updated; reopen this chat.');
}
