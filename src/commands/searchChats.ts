// Subchats: Search Chats…: a quick pick over every chat the extension holds (stored history, live sessions, opened
// transcripts) that narrows as the user types (src/history/chatSearch.ts decides what matches) and opens the one chosen.
import * as vscode from 'vscode';
import { createQuickPick } from './pickerFocus';
import { searchChats, type ChatMatch, type SearchedConnection } from '../history/chatSearch';
import { withWholeTexts } from '../store/wholeTexts';
import type { SubchatsService } from '../host/subchatsService';
import { inertUiText } from '../host/uiText';
import { dayAndTime } from '../presentation/time';
import { quickPickAnswer } from './quickPickAnswer';

interface ChatPickItem extends vscode.QuickPickItem {
  readonly match: ChatMatch;
}

export interface SearchChatsContext {
  readonly service: SubchatsService;
  open(connectionId: string, sessionId: string): void;
}

const title = () => vscode.l10n.t('Search Chats');

/** Resolves with the chat opened, or undefined when the user closed the search. */
export async function searchChatsCommand(ctx: SearchChatsContext): Promise<{ connectionId: string; sessionId: string } | undefined> {
  // Every word is searched: the heads of long messages kept on disk are read back while the search is open.
  const connections: SearchedConnection[] = await Promise.all(
    ctx.service.list().map(async (runtime) => ({
      id: runtime.id,
      agentName: runtime.agent.name,
      startedAt: runtime.startedAt,
      sessions: await Promise.all(runtime.store.listSessions().map((session) => withWholeTexts(runtime.store, session))),
    })),
  );
  if (!connections.some((c) => c.sessions.length > 0)) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Subchats: no chats to search yet. Start one with "Subchats: New Session…".'));
    return undefined;
  }
  const pick = createQuickPick<ChatPickItem>();
  pick.title = title();
  pick.placeholder = vscode.l10n.t('Words from a chat, an agent, or a date (2026-12-01)');
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  const show = (query: string) => {
    const { matches, incomplete } = searchChats(connections, query);
    pick.items = matches.map(itemOf);
    pick.title = incomplete ? vscode.l10n.t('{0} (the newest {1} shown; add words to narrow)', title(), matches.length) : title();
  };
  show('');
  return quickPickAnswer<ChatPickItem, { connectionId: string; sessionId: string }>(
    pick,
    (active, settle) => {
      if (!active) return;
      ctx.open(active.match.connectionId, active.match.sessionId);
      settle({ connectionId: active.match.connectionId, sessionId: active.match.sessionId });
    },
    [pick.onDidChangeValue(show)],
  );
}

function itemOf(match: ChatMatch): ChatPickItem {
  const where = match.parentTitle ? ` · ${vscode.l10n.t('subagent of "{0}"', inertUiText(match.parentTitle, 60))}` : '';
  return {
    label: inertUiText(match.title, 120),
    description: `${inertUiText(match.agentName, 60)} · ${dayAndTime(match.startedAt)}${where}`,
    ...(match.snippet ? { detail: inertUiText(match.snippet, 200) } : {}),
    // The search decides what matches (words anywhere in the transcript); the pick only highlights.
    alwaysShow: true,
    match,
  };
}
