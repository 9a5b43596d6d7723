// Subchats: Export Chat as Markdown…: the chosen session (a tree row, the active chat, or one picked) and its
// subagents, written as Markdown (src/presentation/chatMarkdown.ts) to a file the user picks.
import * as vscode from 'vscode';
import type { SubchatsService } from '../host/subchatsService';
import { chatMarkdown, markdownFileName } from '../presentation/chatMarkdown';
import { subtreeWithWholeTexts } from '../store/wholeTexts';
import { isObject } from '../store/wireMessage';
import { pickSession } from './sessionTargets';

export interface ExportChatContext {
  readonly service: SubchatsService;
  readonly workspaceFolder: () => string | undefined;
  /** The active chat panel's session, if a chat panel is active. */
  readonly activeChat: () => { readonly connectionId: string; readonly sessionId: string } | undefined;
}

/** Resolves with the file written, or undefined when the user chose none. */
export async function exportChatAsMarkdown(ctx: ExportChatContext, arg?: unknown): Promise<vscode.Uri | undefined> {
  // A tree row or `{ connectionId, sessionId }` names the session; from the chat's title bar menu VS Code passes
  // no session, and the active chat is meant.
  const named = typeof arg === 'string' || (isObject(arg) && typeof arg['sessionId'] === 'string');
  const target = await pickSession(ctx.service, named ? arg : ctx.activeChat(), vscode.l10n.t('Export which chat as Markdown?'));
  if (!target) return undefined;
  const folder = ctx.workspaceFolder();
  const name = markdownFileName(target.session.label);
  const uri = await vscode.window.showSaveDialog({
    title: vscode.l10n.t('Export Chat as Markdown'),
    saveLabel: vscode.l10n.t('Export'),
    ...(folder ? { defaultUri: vscode.Uri.joinPath(vscode.Uri.file(folder), name) } : {}),
    filters: { [vscode.l10n.t('Markdown')]: ['md'] },
  });
  if (!uri) return undefined;
  const { store } = target.runtime;
  const session = await subtreeWithWholeTexts(store, target.session.id);
  const markdown = chatMarkdown({ agentName: target.runtime.agent.name, session, cwd: store.effectiveCwd(target.session.id) }, target.session.id);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(markdown));
  const open = vscode.l10n.t('Open');
  void vscode.window.showInformationMessage(vscode.l10n.t('Subchats: chat exported to {0}.', uri.fsPath), open).then((choice) => {
    if (choice === open) void vscode.window.showTextDocument(uri);
  });
  return uri;
}
