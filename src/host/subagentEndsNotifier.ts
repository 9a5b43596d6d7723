// Shows SubagentEnds' notices as VS Code notifications: a background subagent that ended, a subagent that needs
// the user while no visible chat shows it. Setting subchats.notifications.subagentEnds turns them off; VS Code's
// own Do Not Disturb mode holds information messages back by itself. "Open" opens the subagent's chat.
import * as vscode from 'vscode';
import type { AgentRuntime, SubchatsService } from './subchatsService';
import { SubagentEnds, type SubagentNotice } from './subagentEnds';
import type { ChatVisibility } from './vscodeClientHost';


export class SubagentEndsNotifier implements vscode.Disposable {
  /** One watch per connection, made when the connection is listed (before its store changes). */
  private readonly watches = new Map<string, { readonly runtime: AgentRuntime; readonly ends: SubagentEnds }>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly service: SubchatsService,
    private readonly chats: ChatVisibility,
    private readonly enabled: () => boolean,
    private readonly show: (notice: SubagentNotice, runtime: AgentRuntime) => void = showNotice,
  ) {
    this.sync();
    this.disposables.push(
      service.onDidChangeRuntimes(() => this.sync()),
      service.onDidChangeSessions(({ runtime, changes }) => {
        const watch = this.watches.get(runtime.id);
        if (!watch || watch.runtime !== runtime) return;
        // Every change is read, shown or not, so turning the setting on never announces what happened before.
        const notices = watch.ends.note(changes, (sessionId) => this.chats.isSessionVisible(runtime.id, sessionId));
        if (!runtime.live || !this.enabled()) return;
        for (const notice of notices) this.show(notice, runtime);
      }),
    );
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
    this.disposables.length = 0;
    this.watches.clear();
  }

  private sync(): void {
    const listed = new Set<string>();
    for (const runtime of this.service.list()) {
      listed.add(runtime.id);
      if (this.watches.get(runtime.id)?.runtime !== runtime) this.watches.set(runtime.id, { runtime, ends: new SubagentEnds(runtime.store) });
    }
    for (const id of this.watches.keys()) if (!listed.has(id)) this.watches.delete(id);
  }
}

function showNotice(notice: SubagentNotice, runtime: AgentRuntime): void {
  const open = vscode.l10n.t('Open');
  void vscode.window.showInformationMessage(notice.message, open).then((picked) => {
    if (picked === open) void vscode.commands.executeCommand('subchats.openChat', { connectionId: runtime.id, sessionId: notice.sessionId });
  });
}
