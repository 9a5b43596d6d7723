// "Browse Agent Sessions…": the agent's own `session/list` (where advertised), nested by the draft parent
// fields, and reattaching the chosen one with session/load or session/resume. A child is never loaded on
// its own (ACP forbids it): its top-most listed ancestor is loaded, which replays the children too.
import * as vscode from 'vscode';
import { pickerFocusOptions } from './pickerFocus';
import { knownSessionsOf, listedSessionName } from '../acp/listedSessionNames';
import { MAX_LISTED_SESSIONS, nestListedSessions, readListedSessions, type KnownSessions, type ListedSession, type ListedSessionRow } from '../acp/sessionListTree';
import type { AgentRuntime, SubchatsService } from '../host/subchatsService';
import { inertUiText } from '../host/uiText';

const MAX_PAGES = 10;
/** Deeper rows are indented no further: the label stays short however deep the agent nests. */
const MAX_INDENT_DEPTH = 8;

/** The listed sessions (at most MAX_LISTED_SESSIONS over at most MAX_PAGES pages), nested, and whether more were left out. */
async function listAll(runtime: AgentRuntime, cwd: string | undefined, known: KnownSessions): Promise<{ rows: ListedSessionRow[]; partial: boolean }> {
  const connection = runtime.connection!;
  const listed: ListedSession[] = [];
  let cursor: string | undefined;
  let cut = false;
  for (let page = 0; page < MAX_PAGES && !cut && listed.length < MAX_LISTED_SESSIONS; page++) {
    const response = (await connection.listSessions({ ...(cwd ? { cwd } : {}), ...(cursor ? { cursor } : {}) })) as { sessions?: unknown; nextCursor?: unknown } | null;
    const sessions = Array.isArray(response?.sessions) ? response.sessions : [];
    const room = MAX_LISTED_SESSIONS - listed.length;
    for (const session of readListedSessions(sessions, room)) listed.push(session);
    cut = sessions.length > room;
    cursor = typeof response?.nextCursor === 'string' && response.nextCursor !== '' ? response.nextCursor : undefined;
    if (!cursor) break;
  }
  return { rows: nestListedSessions(listed, known), partial: cut || cursor !== undefined };
}

export async function browseAgentSessions(
  service: SubchatsService,
  runtime: AgentRuntime,
  cwd: string | undefined,
  open: (connectionId: string, sessionId: string) => void,
): Promise<void> {
  if (!runtime.live || !runtime.connection?.offers('list')) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Subchats: {0} does not list its sessions (no sessionCapabilities.list).', runtime.agent.name));
    return;
  }
  // The store's names and parents for ids the list leaves untitled or unlinked (opencode's loaded child).
  const known = knownSessionsOf(runtime.store.listSessions());
  const { rows, partial } = await listAll(runtime, cwd, known);
  const now = Date.now();
  if (rows.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Subchats: {0} has no stored sessions for this folder.', runtime.agent.name));
    return;
  }
  const picked = await vscode.window.showQuickPick(
    rows.map((row) => ({
      label: `${'\u00a0\u00a0'.repeat(Math.min(row.depth, MAX_INDENT_DEPTH))}${row.depth ? '↳ ' : ''}${inertUiText(listedSessionName(row, known, now))}`,
      description: inertUiText([row.subagentId ? vscode.l10n.t('subagent {0}', row.subagentId) : undefined, row.updatedAt ?? undefined].filter(Boolean).join(' · ')),
      detail: inertUiText(row.sessionId),
      row,
    })),
    { placeHolder: partial ? vscode.l10n.t('Sessions stored by {0} (the first {1} listed)', runtime.agent.name, rows.length.toLocaleString()) : vscode.l10n.t('Sessions stored by {0}', runtime.agent.name), matchOnDetail: true, ...pickerFocusOptions() },
  );
  if (!picked) return;
  const target = rows.find((row) => row.sessionId === picked.row.rootSessionId) ?? picked.row;
  if (target !== picked.row) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Subchats: subagents cannot be loaded on their own; loading their parent "{0}".', inertUiText(listedSessionName(target, known, now))));
  }
  await service.attach(runtime, target.sessionId, target.cwd ?? cwd ?? runtime.cwd);
  open(runtime.id, picked.row.sessionId === target.sessionId ? target.sessionId : picked.row.sessionId);
}
