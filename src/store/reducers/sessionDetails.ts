// Updates that set one of a session's details: plan, title (session info), usage, modes, config options,
// commands, the subagent catalog, notices; and the same facts from session setup and settings responses.
import type { AvailableCommand, PlanEntry, PlanEntryItem, SessionRecord } from '../model';
import type { ReducerContext } from '../reducerContext';
import { readUsageUpdate } from '../usage';
import { asString, isObject, type JsonObject } from '../wireMessage';
import { noteUsage } from './usage';
import { t } from '../../presentation/l10n';

/** A plan's whole content (v1 `plan` is the session's one plan; v2 plans are keyed by planId). */
export function applyPlan({ core }: ReducerContext, session: SessionRecord, raw: unknown[], planId = ''): void {
  const entries: PlanEntry[] = raw.filter(isObject).map((e) => ({
    content: asString(e['content']) ?? '',
    ...(typeof e['priority'] === 'string' ? { priority: e['priority'] } : {}),
    ...(typeof e['status'] === 'string' ? { status: e['status'] } : {}),
  }));
  session.plan = entries;
  const plans = core.indexOf(session).plans;
  const shown = plans.get(planId);
  if (shown) {
    shown.entries = entries;
    core.touchEntry(session, shown);
  } else {
    // A plan sent again after its removal is a new entry: the removed one stays where it was.
    const id = planId === '' ? `plan:${session.id}` : core.nextEntryId('plan');
    const entry: PlanEntryItem = { kind: 'plan', id, rev: core.rev, at: core.at, ...(planId === '' ? {} : { planId }), entries };
    plans.set(planId, entry);
    core.addEntry(session, entry);
  }
  core.touch(session);
}

/**
 * v2 `plan_update`: the plan's whole content. Items become the plan's entries; a markdown plan or a plan
 * file is one entry with its text (or its address), so the plan still shows.
 */
export function applyPlanUpdate(parts: ReducerContext, session: SessionRecord, plan: unknown): void {
  if (!isObject(plan)) {
    parts.core.diagnose('invalid-message', 'plan_update without a plan');
    return;
  }
  const planId = asString(plan['planId']) ?? '';
  if (Array.isArray(plan['entries'])) applyPlan(parts, session, plan['entries'], planId);
  else if (typeof plan['content'] === 'string') applyPlan(parts, session, [{ content: plan['content'] }], planId);
  else if (typeof plan['uri'] === 'string') applyPlan(parts, session, [{ content: t('Plan file: {0}', plan['uri']) }], planId);
}

/** v2 `plan_removed`: the plan shows as removed; the session's plan becomes the latest one left (or none). */
export function removePlan({ core }: ReducerContext, session: SessionRecord, planId: unknown): void {
  const id = asString(planId);
  if (id === undefined) {
    core.diagnose('invalid-message', 'plan_removed without a planId');
    return;
  }
  const plans = core.indexOf(session).plans;
  const entry = plans.get(id);
  if (!entry) {
    core.diagnose('unknown-plan', `plan_removed names plan ${JSON.stringify(id)}, which is not shown on ${session.id}`);
    return;
  }
  plans.delete(id);
  entry.removed = true;
  core.touchEntry(session, entry);
  let latest: PlanEntryItem | undefined;
  for (const plan of plans.values()) if (!latest || plan.rev > latest.rev) latest = plan;
  session.plan = latest ? latest.entries : null;
  core.touch(session);
}

export function applySessionInfo({ core, tree }: ReducerContext, session: SessionRecord, update: JsonObject): void {
  if ('title' in update) session.title = asString(update['title']) ?? null;
  const meta = isObject(update['_meta']) ? update['_meta'] : undefined;
  const parentId = asString(update['parentSessionId']) ?? asString(meta?.['parentSessionId']);
  if (parentId && session.parentId === null && core.sessions.has(parentId)) {
    tree.adoptChild(parentId, session.id, 'session-info', asString(update['parentToolCallId']) ?? asString(meta?.['parentToolCallId']));
  }
  core.touch(session);
}

export function applyUsage(parts: ReducerContext, session: SessionRecord, update: JsonObject): void {
  session.usage = { used: update['used'], size: update['size'], ...(update['cost'] !== undefined ? { cost: update['cost'] } : {}) };
  parts.core.touch(session);
  noteUsage(parts, session, readUsageUpdate(update));
}

export function applyCurrentMode({ core }: ReducerContext, session: SessionRecord, modeId: unknown): void {
  session.currentModeId = asString(modeId) ?? session.currentModeId;
  core.touch(session);
}

export function applyConfigOptions({ core }: ReducerContext, session: SessionRecord, configOptions: unknown): void {
  if (!Array.isArray(configOptions)) return;
  session.configOptions = configOptions;
  core.touch(session);
}

const MAX_COMMANDS = 200;
const MAX_COMMAND_NAME = 100;
const MAX_COMMAND_TEXT = 500;

/** Agent text, cut to a size a completion list can show. */
function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The advertised commands with a usable name (no spaces, so `/name` parses back), the list replaced whole. */
export function readAvailableCommands(raw: unknown): AvailableCommand[] {
  if (!Array.isArray(raw)) return [];
  const commands: AvailableCommand[] = [];
  const seen = new Set<string>();
  for (const item of raw) {
    if (!isObject(item)) continue;
    const name = asString(item['name'])?.trim().replace(/^\//, '');
    if (!name || name.length > MAX_COMMAND_NAME || /\s/.test(name) || seen.has(name)) continue;
    seen.add(name);
    const input = isObject(item['input']) ? item['input'] : undefined;
    const hint = asString(input?.['hint']);
    commands.push({ name, description: clip(asString(item['description']) ?? '', MAX_COMMAND_TEXT), ...(hint ? { hint: clip(hint, MAX_COMMAND_TEXT) } : {}) });
    if (commands.length >= MAX_COMMANDS) break;
  }
  return commands;
}

export function applyAvailableCommands({ core }: ReducerContext, session: SessionRecord, commands: unknown): void {
  session.availableCommands = readAvailableCommands(commands);
  core.touch(session);
}

export function applySubagentCatalog({ core }: ReducerContext, session: SessionRecord, catalog: unknown): void {
  session.availableSubagents = Array.isArray(catalog) ? catalog : [];
  core.touch(session);
}

/** What session/new, session/load and session/resume answer: modes, config options, the subagent catalog. */
export function applySessionSetup(parts: ReducerContext, session: SessionRecord, body: JsonObject): void {
  if (body['modes'] !== undefined) {
    session.modes = body['modes'];
    const modes = isObject(body['modes']) ? body['modes'] : undefined;
    session.currentModeId = asString(modes?.['currentModeId']) ?? session.currentModeId;
  }
  if (body['configOptions'] !== undefined) session.configOptions = body['configOptions'];
  if (Array.isArray(body['availableSubagents'])) session.availableSubagents = body['availableSubagents'];
  parts.core.touch(session);
}

export function addNotice({ core }: ReducerContext, session: SessionRecord, severity: string, title: string, description?: string): void {
  core.addEntry(session, {
    kind: 'notice',
    id: core.nextEntryId('notice'),
    rev: core.rev,
    at: core.at,
    severity,
    title,
    ...(description !== undefined ? { description } : {}),
  });
}

/** A compaction's end as one notice; v2 upserts by `compactionId`, so a repeated end is said once. */
export function applyCompaction(parts: ReducerContext, session: SessionRecord, update: JsonObject): void {
  const ended = COMPACTION_ENDS[asString(update['status']) ?? ''];
  if (!ended) return;
  const compactionId = asString(update['compactionId']);
  const reported = parts.core.indexOf(session).compactionsReported;
  if (compactionId) {
    if (reported.has(compactionId)) return;
    reported.add(compactionId);
  }
  const error = asString(update['error']);
  addNotice(parts, session, ended.severity, ended.title(), ended.severity === 'warning' ? error : undefined);
}

// Titles are functions: the words are translated when the notice is made (src/presentation/l10n.ts).
const COMPACTION_ENDS: Readonly<Record<string, { severity: string; title: () => string } | undefined>> = Object.assign(Object.create(null) as object, {
  completed: { severity: 'info', title: () => t('Context compacted') },
  failed: { severity: 'warning', title: () => t('Context compaction failed') },
  cancelled: { severity: 'info', title: () => t('Context compaction cancelled') },
});
