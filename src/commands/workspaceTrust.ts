// The one place that decides whether an agent process may start here: never in an untrusted workspace,
// where a configured agent (a command line from settings) would run against files the user has not trusted.
import * as vscode from 'vscode';

const MANAGE_TRUST = 'Manage Workspace Trust';

/** True (and says why, offering to manage trust) when no agent may start in this workspace. */
export function refusedAsUntrusted(): boolean {
  if (vscode.workspace.isTrusted) return false;
  void vscode.window
    .showWarningMessage('Subchats does not start agents in an untrusted workspace. Trust the workspace first.', MANAGE_TRUST)
    .then((choice) => (choice === MANAGE_TRUST ? vscode.commands.executeCommand('workbench.trust.manage') : undefined));
  return true;
}
