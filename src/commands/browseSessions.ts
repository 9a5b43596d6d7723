// "Browse Agent Sessions…": the agent's own `session/list` (where advertised), nested by the draft parent
// fields, and reattaching the chosen one with session/load or session/resume. A child is never loaded on
// its own (ACP forbids it): its top-most listed ancestor is loaded, which replays the children too.
import * as vscode from 'vscode';
import { nestListedSessions, readListedSessions, type ListedSessionRow } from '../acp/sessionListTree';
import type { AgentRuntime, SubchatsService } from '../host/subchatsService';
import { inertUiText } from '../host/uiText';

const MAX_PAGES = 10;

async function listAll(runtime: AgentRuntime, cwd: string | undefined): Promise<ListedSessionRow[]> {
  const connection = runtime.connection!;
  const raw: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const response = (await connection.listSessions({ ...(cwd ? { cwd } : {}), ...(cursor ? { cursor } : {}) })) as { sessions?: unknown[]; nextCursor?: string | null };
    raw.push(...(response.sessions ?? []));
    cursor = response.nextCursor ?? undefined;
    if (!cursor) break;
  }
  return nestListedSessions(readListedSessions(raw));
}

function topAncestor(rows: readonly ListedSessionRow[], row: ListedSessionRow): ListedSessionRow {
  let current = row;
  for (let guard = 0; current.parentSessionId && guard < rows.length; guard++) {
    const parent = rows.find((r) => r.sessionId === current.parentSessionId);
    if (!parent) break;
    current = parent;
  }
  return current;
}

export async function browseAgentSessions(
  service: SubchatsService,
  runtime: AgentRuntime,
  cwd: string | undefined,
  open: (runtimeId: string, sessionId: string) => void,
): Promise<void> {
  if (!runtime.live || !runtime.connection?.offers('list')) {
    void vscode.window.showInformationMessage(`Subchats: ${runtime.agent.name} does not list its sessions (no sessionCapabilities.list).`);
    return;
  }
  const rows = await listAll(runtime, cwd);
  if (rows.length === 0) {
    void vscode.window.showInformationMessage(`Subchats: ${runtime.agent.name} has no stored sessions for this folder.`);
    return;
  }
  const picked = await vscode.window.showQuickPick(
    rows.map((row) => ({
      label: `${'\u00a0\u00a0'.repeat(row.depth)}${row.depth ? '↳ ' : ''}${inertUiText(row.title ?? row.sessionId)}`,
      description: inertUiText([row.subagentId ? `subagent ${row.subagentId}` : undefined, row.updatedAt ?? undefined].filter(Boolean).join(' · ')),
      detail: inertUiText(row.sessionId),
      row,
    })),
    { placeHolder: `Sessions stored by ${runtime.agent.name}`, matchOnDetail: true },
  );
  if (!picked) return;
  const target = topAncestor(rows, picked.row);
  if (target !== picked.row) {
    void vscode.window.showInformationMessage(`Subchats: subagents cannot be loaded on their own; loading their parent "${inertUiText(target.title ?? target.sessionId)}".`);
  }
  await service.attach(runtime, target.sessionId, target.cwd ?? cwd ?? runtime.cwd);
  open(runtime.id, picked.row.sessionId === target.sessionId ? target.sessionId : picked.row.sessionId);
}
