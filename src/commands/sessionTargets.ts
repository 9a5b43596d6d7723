// Turns a command argument (tree node, {connectionId, sessionId}, a session id) into a session, or asks.
import * as vscode from 'vscode';
import { pickerFocusOptions } from './pickerFocus';
import type { AgentRuntime, SubchatsService } from '../host/subchatsService';
import type { SessionView } from '../store/model';
import { isObject } from '../store/wireMessage';
import { stateLabel } from '../presentation';
import { inertUiText } from '../host/uiText';

export interface SessionTarget {
  readonly runtime: AgentRuntime;
  readonly session: SessionView;
}

/** Accepts a tree node, `{ connectionId, sessionId }` (`runtimeId`, its older name, too), or a bare session id. */
function targetFromArgument(service: SubchatsService, arg: unknown): SessionTarget | undefined {
  let connectionId: string | undefined;
  let sessionId: string | undefined;
  if (typeof arg === 'string') sessionId = arg;
  else if (isObject(arg)) {
    connectionId = connectionIdOf(arg);
    sessionId = typeof arg['sessionId'] === 'string' ? arg['sessionId'] : undefined;
  }
  if (!sessionId) return undefined;
  const runtimes = connectionId ? [service.get(connectionId)].filter((r): r is AgentRuntime => !!r) : [...service.list()].reverse();
  for (const runtime of runtimes) {
    const session = runtime.store.getSession(sessionId);
    if (session) return { runtime, session };
  }
  return undefined;
}

function runtimeFromArgument(service: SubchatsService, arg: unknown): AgentRuntime | undefined {
  if (typeof arg === 'string') return service.get(arg);
  if (isObject(arg)) {
    const id = connectionIdOf(arg);
    return id ? service.get(id) : undefined;
  }
  return undefined;
}

/** Resolves the argument, or shows a quick pick of the sessions that pass `filter`. */
export async function pickSession(
  service: SubchatsService,
  arg: unknown,
  placeHolder: string,
  filter: (target: SessionTarget) => boolean = () => true,
): Promise<SessionTarget | undefined> {
  const direct = targetFromArgument(service, arg);
  if (direct) return direct;
  const items: (vscode.QuickPickItem & { target: SessionTarget })[] = [];
  for (const runtime of service.list()) {
    for (const session of runtime.store.listSessions()) {
      const target = { runtime, session };
      if (!filter(target)) continue;
      let depth = 0;
      for (let p = session.parentId; p; p = runtime.store.getSession(p)?.parentId ?? null) depth++;
      items.push({
        label: `${'\u00a0\u00a0'.repeat(depth)}${depth ? '↳ ' : ''}${inertUiText(session.label)}`,
        description: `${inertUiText(runtime.agent.name)} · ${stateLabel(session.state)}`,
        detail: inertUiText(session.id),
        target,
      });
    }
  }
  if (items.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Subchats: no session fits. Start one with "Subchats: New Session…".'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, { placeHolder, matchOnDetail: true, ...pickerFocusOptions() });
  return picked?.target;
}

export async function pickRuntime(service: SubchatsService, arg: unknown, placeHolder: string, filter: (r: AgentRuntime) => boolean = () => true): Promise<AgentRuntime | undefined> {
  const direct = runtimeFromArgument(service, arg) ?? targetFromArgument(service, arg)?.runtime;
  if (direct) return direct;
  const runtimes = service.list().filter(filter);
  if (runtimes.length === 1) return runtimes[0];
  if (runtimes.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Subchats: no agent connection fits.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    runtimes.map((runtime) => ({ label: inertUiText(runtime.agent.name), description: `${runtime.status} · ${new Date(runtime.startedAt).toLocaleTimeString()}`, runtime })),
    { placeHolder, ...pickerFocusOptions() },
  );
  return picked?.runtime;
}

/** A command argument's connection id; `runtimeId` is what keybindings and links written before the rename pass. */
function connectionIdOf(arg: Record<string, unknown>): string | undefined {
  for (const key of ['connectionId', 'runtimeId']) if (typeof arg[key] === 'string') return arg[key];
  return undefined;
}
