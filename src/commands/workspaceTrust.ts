// The one place that decides whether an agent process may start here: never in an untrusted workspace,
// where a configured agent (a command line from settings) would run against files the user has not trusted.
import * as vscode from 'vscode';

/** Why no agent starts here; the API throws it, the commands show it. */
export function untrustedRefusal(): string {
  return vscode.l10n.t('Subchats does not start agents in an untrusted workspace. Trust the workspace first.');
}

export function mayStartAgents(): boolean {
  return vscode.workspace.isTrusted;
}

/** True (and says why, offering to manage trust) when no agent may start in this workspace. */
export function refusedAsUntrusted(): boolean {
  if (mayStartAgents()) return false;
  const manageTrust = vscode.l10n.t('Manage Workspace Trust');
  void vscode.window
    .showWarningMessage(untrustedRefusal(), manageTrust)
    .then((choice) => (choice === manageTrust ? vscode.commands.executeCommand('workbench.trust.manage') : undefined));
  return true;
}
