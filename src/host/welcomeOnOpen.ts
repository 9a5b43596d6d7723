// A workspace that asks for a welcome opens on Subchats the first time: the Sessions view and the Get Started
// walkthrough. VS Code does this itself for an extension installed from the Marketplace; a development or
// symlinked install (`npm start`) gets nothing, so `npm start`'s demo workspace carries the marker file.
import * as vscode from 'vscode';

/** The file, relative to a workspace folder, that asks for the welcome (`activationEvents` names it too). */
const WELCOME_MARKER = '.vscode/subchats-welcome';
const WELCOMED_KEY = 'subchats.welcomed';
const WALKTHROUGH_ID = 'subchats.getStarted';

export async function welcomeIfAsked(context: vscode.ExtensionContext): Promise<void> {
  if (context.workspaceState.get<boolean>(WELCOMED_KEY)) return;
  const folders = vscode.workspace.workspaceFolders ?? [];
  const asked = await Promise.all(folders.map((folder) => vscode.workspace.fs.stat(vscode.Uri.joinPath(folder.uri, WELCOME_MARKER)).then(() => true, () => false)));
  if (!asked.includes(true)) return;
  await context.workspaceState.update(WELCOMED_KEY, true);
  await vscode.commands.executeCommand('subchats.sessions.focus');
  await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${context.extension.id}#${WALKTHROUGH_ID}`, false);
}
