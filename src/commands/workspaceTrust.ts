// The one place that decides whether an agent process may start here: never in an untrusted workspace,
// where a configured agent (a command line from settings) would run against files the user has not trusted.
import * as vscode from 'vscode';

const MANAGE_TRUST = 'Manage Workspace Trust';

/** Why no agent starts here; the API throws it, the commands show it. */
export const UNTRUSTED_REFUSAL = 'Subchats does not start agents in an untrusted workspace. Trust the workspace first.';

export function mayStartAgents(): boolean {
  return vscode.workspace.isTrusted;
}

/** True (and says why, offering to manage trust) when no agent may start in this workspace. */
export function refusedAsUntrusted(): boolean {
  if (mayStartAgents()) return false;
  void vscode.window
    .showWarningMessage(UNTRUSTED_REFUSAL, MANAGE_TRUST)
    .then((choice) => (choice === MANAGE_TRUST ? vscode.commands.executeCommand('workbench.trust.manage') : undefined));
  return true;
}
