// "Subchats: Open Chat as Plain Text": the focused chat's transcript (its subagents' too) in a read-only editor,
// where a screen reader or the keyboard reads it line by line as in VS Code's Accessible View. The document is
// virtual (its own scheme) so nothing can edit or save it; running the command again shows it as of now.
import * as vscode from 'vscode';
import type { SubchatsService } from '../host/subchatsService';
import { chatText } from '../presentation/chatText';
import { subtreeWithWholeTexts } from '../store/wholeTexts';

export const CHAT_TEXT_SCHEME = 'subchats-chat';

/** The document of one session: its name in the path (the tab's title), which session in the query. */
function chatTextUri(connectionId: string, sessionId: string, label: string): vscode.Uri {
  const name = label.replace(/[^\p{L}\p{N} ._-]+/gu, ' ').trim().slice(0, 60) || vscode.l10n.t('Chat');
  return vscode.Uri.from({ scheme: CHAT_TEXT_SCHEME, path: `/${name}.txt`, query: new URLSearchParams({ connectionId, sessionId }).toString() });
}

export class ChatTextProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly service: Pick<SubchatsService, 'get'>) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const query = new URLSearchParams(uri.query);
    const store = this.service.get(query.get('connectionId') ?? '')?.store;
    const sessionId = query.get('sessionId') ?? '';
    if (!store?.getSession(sessionId)) return vscode.l10n.t('This chat is no longer available.');
    return chatText(sessionId, await subtreeWithWholeTexts(store, sessionId));
  }

  /** Opens (or brings up to date) the document of a session, beside the chat. */
  async open(connectionId: string, sessionId: string, label: string): Promise<void> {
    const uri = chatTextUri(connectionId, sessionId, label);
    this.changed.fire(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true });
  }

  dispose(): void {
    this.changed.dispose();
  }
}
