// A fresh session record with every field at its "nothing known yet" value.
import { spellOf } from '../presentation/time';
import type { SessionRecord } from './model';
import { t } from '../presentation/l10n';

export type SessionRecordInit = Pick<SessionRecord, 'id' | 'ordinal' | 'parentId' | 'parentToolCallId' | 'link' | 'origin' | 'state'>;

export function newSessionRecord(init: SessionRecordInit, at: number, rev: number): SessionRecord {
  return {
    ...init,
    label: t('Session {0}', init.ordinal),
    title: null,
    description: null,
    subagentType: null,
    cwd: null,
    additionalDirectories: null,
    capabilities: null,
    stateHistory: [{ state: init.state.state, at, source: 'client' }],
    childIds: [],
    entries: [],
    // Keyed by agent-chosen ids: no prototype, so an id like "__proto__" is just a key.
    toolCalls: Object.create(null) as SessionRecord['toolCalls'],
    toolCallOrder: [],
    plan: null,
    usage: null,
    usageReports: {},
    spend: null,
    currentModeId: null,
    modes: null,
    configOptions: null,
    availableCommands: null,
    remoteSessionId: null,
    closed: false,
    cancelRequestedAt: null,
    background: false,
    activePromptId: null,
    promptUnanswered: false,
    queued: [],
    hadTraffic: false,
    awaitingUser: 0,
    stateReported: false,
    openedByClient: false,
    controlsStale: false,
    terminals: Object.create(null) as SessionRecord['terminals'],
    fileWrites: [],
    availableSubagents: null,
    createdAt: at,
    updatedAt: at,
    timeSpent: { working: 0, waiting: 0, since: spellOf(init.state) ? at : null },
    rev,
    subtreeRev: rev,
    meta: null,
  };
}
