// When the palette closes, VS Code hands the focus back to the editor that had it; a webview editor (a chat) takes
// it late, by a message into its frame (microsoft/vscode#93950). A picker the command opened meanwhile loses the
// focus to it and closes before the user saw it: seen in e2e runs on a loaded machine, ~1 in 12 with a chat
// streaming. Every picker a Subchats command opens takes its focus rule from here.
import * as vscode from 'vscode';

/** Whether a picker opened now may close when it loses the focus: not while a webview editor is the active tab. */
export function pickerFocusOptions(): { ignoreFocusOut: boolean } {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return { ignoreFocusOut: input instanceof vscode.TabInputWebview };
}

/** A quick pick (vscode.window.createQuickPick) that keeps to the rule above. */
export function createQuickPick<T extends vscode.QuickPickItem>(): vscode.QuickPick<T> {
  return Object.assign(vscode.window.createQuickPick<T>(), pickerFocusOptions());
}
