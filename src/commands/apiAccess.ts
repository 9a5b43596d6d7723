// The user's side of API consent (the policy is src/host/apiConsent.ts): the question an extension's first
// requestAccess asks, and "Subchats: Manage API Access", which lists every extension decided about and lets
// the user allow or revoke each.
import * as vscode from 'vscode';
import { pickerFocusOptions } from './pickerFocus';
import { ApiConsent, type ApiCaller } from '../host/apiConsent';
import { inertUiText } from '../host/uiText';

/** The consent policy on global state, asking in a modal dialog. */
export function apiConsentFor(context: vscode.ExtensionContext): ApiConsent {
  return new ApiConsent({
    storage: context.globalState,
    ownId: context.extension.id,
    installed: (id) => {
      const extension = vscode.extensions.getExtension(id);
      if (!extension) return undefined;
      const displayName: unknown = (extension.packageJSON as { displayName?: unknown } | undefined)?.displayName;
      return { id: extension.id, name: typeof displayName === 'string' && displayName.trim() ? displayName : extension.id };
    },
    ask: async (caller) => {
      const allow = vscode.l10n.t('Allow');
      const answer = await vscode.window.showWarningMessage(
        vscode.l10n.t('Allow the extension {0} to use Subchats?', callerText(caller)),
        {
          modal: true,
          detail: vscode.l10n.t('It could start your agents, send them prompts and cancel them, and read your sessions and transcripts. Agents run with your rights. "Subchats: Manage API Access" changes this later.'),
        },
        allow,
        vscode.l10n.t('Deny'),
      );
      return answer === allow;
    },
  });
}

function callerText(caller: ApiCaller): string {
  const name = inertUiText(caller.name, 80);
  return name === caller.id ? `"${caller.id}"` : `"${name}" (${caller.id})`;
}

export function registerApiAccessCommand(consent: ApiConsent): vscode.Disposable {
  return vscode.commands.registerCommand('subchats.manageApiAccess', async () => {
    const decisions = consent.decisions();
    if (!decisions.length) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Subchats: no extension has asked to use the Subchats API.'));
      return;
    }
    const items = decisions.map(({ caller, allowed }) => ({ label: inertUiText(caller.name, 80), description: caller.id, picked: allowed, id: caller.id }));
    const chosen = await vscode.window.showQuickPick(items, {
      canPickMany: true,
      placeHolder: vscode.l10n.t('Checked extensions may start agents, send prompts and read transcripts through the Subchats API'),
      ...pickerFocusOptions(),
    });
    if (!chosen) return;
    const allowed = new Set(chosen.map((item) => item.id));
    for (const { caller } of decisions) await consent.decide(caller.id, allowed.has(caller.id));
  });
}
