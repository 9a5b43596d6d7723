// Shared helpers for extension-host tests: the activated Subchats API with a fast demo agent, waiting on
// snapshots (event-driven, never fixed sleeps), the demo tour's session ids, and the wire transcript.
import * as vscode from 'vscode';
import type { PendingPermission, SubchatsTestApi as SubchatsApi } from '../../../src/extension';
import type { ConnectionSnapshot } from '../../../src/host/subchatsService';
import type { ReplaySession } from '../../../src/store/replayReport';

export const EXTENSION_ID = 'subchats.subchats';

/** How long a condition may take before the wait fails with a description (below mocha's suite timeouts). */
const WAIT_LIMIT_MS = 90_000;

/**
 * The demo agent reads its settings when it starts, and every test reuses the one live demo connection, so
 * the settings are written before anything starts it. Pace 0 keeps turns fast; the Explorer branch works
 * until it is cancelled, so tests can look at a running cancellable child without racing a clock.
 */
const DEMO_SETTINGS: Record<string, unknown> = {
  defaultAgent: 'demo',
  'demoAgent.pace': 0,
  'demoAgent.childDuration': 600_000,
  'demoAgent.dialect': 'acp',
};

export function extension(): vscode.Extension<SubchatsApi> {
  const found = vscode.extensions.getExtension<SubchatsApi>(EXTENSION_ID);
  if (!found) throw new Error(`${EXTENSION_ID} is not loaded in the extension host`);
  return found;
}

export async function activateSubchats(): Promise<SubchatsApi> {
  const config = vscode.workspace.getConfiguration('subchats');
  for (const [key, value] of Object.entries(DEMO_SETTINGS)) {
    if (config.get(key) !== value) await config.update(key, value, vscode.ConfigurationTarget.Global);
  }
  const fresh = vscode.workspace.getConfiguration('subchats');
  for (const [key, value] of Object.entries(DEMO_SETTINGS)) {
    if (fresh.get(key) !== value) throw new Error(`subchats.${key} did not take the value ${JSON.stringify(value)}`);
  }
  return extension().activate();
}

export function connectionOf(api: SubchatsApi, connectionId: string): ConnectionSnapshot {
  const connection = api.snapshot().find((c) => c.id === connectionId);
  if (!connection) throw new Error(`connection ${connectionId} is not in the snapshot`);
  return connection;
}

export function sessionOf(api: SubchatsApi, connectionId: string, sessionId: string): ReplaySession {
  const session = connectionOf(api, connectionId).sessions.find((s) => s.id === sessionId);
  if (!session) throw new Error(`session ${sessionId} is not in the snapshot`);
  return session;
}

/** Resolves with the predicate's first truthy value, checked now and after every `onDidChange`. */
export function waitFor<T>(api: SubchatsApi, what: string, probe: () => T | undefined | false | null): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const subscription = api.onDidChange(check);
    const timer = setTimeout(() => {
      subscription.dispose();
      reject(new Error(`waited ${WAIT_LIMIT_MS / 1000}s for ${what}; snapshot: ${describe(api)}`));
    }, WAIT_LIMIT_MS);
    function check(): void {
      let value: T | undefined | false | null;
      try {
        value = probe();
      } catch {
        return; // not there yet (e.g. the session is not in the snapshot yet)
      }
      if (value === undefined || value === false || value === null) return;
      clearTimeout(timer);
      subscription.dispose();
      resolve(value);
    }
    check();
  });
}

function describe(api: SubchatsApi): string {
  return JSON.stringify(
    api.snapshot().map((c) => ({
      id: c.id,
      status: c.status,
      sessions: c.sessions.map((s) => `${s.title ?? s.id}:${s.state}${s.stopReason ? `/${s.stopReason}` : ''}${s.canCancel ? ':canCancel' : ''}`),
    })),
  );
}

export interface TourIds {
  readonly explorer: string;
  readonly scout: string;
  readonly reviewer: string;
}

/** The children the demo tour spawns under `rootId`, once all three are announced. */
export function tourChildren(api: SubchatsApi, connectionId: string, rootId: string): TourIds | undefined {
  const sessions = connectionOf(api, connectionId).sessions;
  const byTitle = (title: string, parentId: string | undefined) => sessions.find((s) => s.title === title && s.parentId === parentId)?.id;
  const explorer = byTitle('Explorer', rootId);
  const reviewer = byTitle('Reviewer', rootId);
  const scout = explorer ? byTitle('Scout', explorer) : undefined;
  return explorer && reviewer && scout ? { explorer, scout, reviewer } : undefined;
}

export function pendingPermissionOf(api: SubchatsApi, connectionId: string, sessionId: string): PendingPermission | undefined {
  return api.pendingPermissions().find((p) => p.connectionId === connectionId && p.sessionId === sessionId);
}

/**
 * Answers a pending permission like a user clicking "Reject": the demo agent then writes nothing, so a run
 * never leaves files in the workspace (which is test/fixtures under @vscode/test-electron). Returns the option.
 */
export function answer(api: SubchatsApi, permission: PendingPermission): string {
  const option = permission.options.find((o) => o.kind === 'reject_once');
  if (!option) throw new Error(`permission "${permission.title}" offers no reject_once option`);
  if (!api.answerPermission(permission.connectionId, permission.requestId, option.optionId)) throw new Error(`permission ${permission.requestId} was no longer pending`);
  return option.optionId;
}

export interface WireLine {
  readonly dir: 'client->agent' | 'agent->client';
  readonly msg: { id?: number | string; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: unknown };
}

export function wire(api: SubchatsApi, connectionId: string): WireLine[] {
  return api
    .transcript(connectionId)
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as WireLine);
}

/** Client notifications/requests of `method` on `sessionId`. */
export function sent(api: SubchatsApi, connectionId: string, method: string, sessionId: string): WireLine[] {
  return wire(api, connectionId).filter((l) => l.dir === 'client->agent' && l.msg.method === method && l.msg.params?.['sessionId'] === sessionId);
}

/** Starts a full demo tour on a new session, answers the root's own permission, and waits for all three children. */
export async function startTour(api: SubchatsApi): Promise<{ connectionId: string; rootId: string; ids: TourIds; turn: Promise<{ stopReason: string }> }> {
  const { connectionId, sessionId: rootId } = await api.startSession();
  // The root's own edit asks first; the answer (reject) lets the tour go on to delegate.
  const turn = api.prompt(connectionId, rootId, 'Show me the tour');
  turn.catch(() => undefined); // observed by the test; this keeps an early failure from going unhandled
  const rootAsk = await waitFor(api, 'the root to ask permission for its edit', () => pendingPermissionOf(api, connectionId, rootId));
  answer(api, rootAsk);
  const ids = await waitFor(api, 'Explorer, Scout and Reviewer to be announced', () => tourChildren(api, connectionId, rootId));
  return { connectionId, rootId, ids, turn };
}
