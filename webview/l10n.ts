// The chat's words in VS Code's display language: the host writes vscode.l10n.bundle into the page as a JSON
// data element (src/webviews/chatHtml.ts); read it before anything renders, so every t() call finds it.
import { L10N_ELEMENT_ID, parseL10nBundle, useL10nBundle } from '../src/presentation';

export function useHostTranslations(document: Document): void {
  useL10nBundle(parseL10nBundle(document.getElementById(L10N_ELEMENT_ID)?.textContent));
}
