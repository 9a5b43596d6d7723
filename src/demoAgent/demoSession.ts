// A root session of the demo agent: its settings (modes, config options), history for replay, and live runs.
import type { CancelScope } from './cancelScope';
import type { Json, JsonObject } from './lineRpc';
import { ErrorCodes, RpcError } from './lineRpc';
import type { SteerInbox } from './steerInbox';

const MODES = [
  { id: 'ask', name: 'Ask', description: 'Ask before every change' },
  { id: 'plan', name: 'Plan', description: 'Read and delegate only: no edits, no commands' },
] as const;

const MODELS = [
  { value: 'scripted', name: 'Scripted', description: 'The normal pace' },
  { value: 'scripted-fast', name: 'Scripted (fast)', description: 'Four times faster' },
] as const;

export interface DemoSession {
  readonly id: string;
  readonly cwd: string;
  title: string | null;
  updatedAt: string;
  modeId: string;
  model: string;
  showThoughts: boolean;
  /** Every session/update params sent for this session and its subagents, in order (session/load replays it). */
  readonly history: JsonObject[];
  readonly alwaysAllowed: Set<string>;
  /** The running turn, if any. */
  activeTurn?: ActiveTurn;
  /** Scopes of runs that still have work going (a background child outlives its prompt). */
  readonly liveScopes: Set<CancelScope>;
  usedTokens: number;
}

/** A running turn: of a prompt (`requestId`), or one the agent started for a steer while idle. */
export interface ActiveTurn {
  readonly scope: CancelScope;
  readonly requestId?: number | string;
  /** Steers that joined this turn and wait for its next step. */
  readonly steers: SteerInbox;
}

export function createSession(id: string, cwd: string): DemoSession {
  return {
    id,
    cwd,
    title: null,
    updatedAt: new Date().toISOString(),
    modeId: 'ask',
    model: 'scripted',
    showThoughts: true,
    history: [],
    alwaysAllowed: new Set(),
    liveScopes: new Set(),
    usedTokens: 0,
  };
}

export function modeState(session: DemoSession): JsonObject {
  return { currentModeId: session.modeId, availableModes: MODES.map((mode) => ({ ...mode })) };
}

/** The full set of config options; the boolean one only for clients that said they render it. */
export function configOptions(session: DemoSession, booleanConfig: boolean): JsonObject[] {
  const options: JsonObject[] = [
    {
      id: 'mode',
      name: 'Mode',
      description: 'How the demo agent works',
      category: 'mode',
      type: 'select',
      currentValue: session.modeId,
      options: MODES.map((mode) => ({ value: mode.id, name: mode.name, description: mode.description })),
    },
    { id: 'model', name: 'Model', description: 'Scripted, no real model', category: 'model', type: 'select', currentValue: session.model, options: MODELS.map((model) => ({ ...model })) },
  ];
  if (booleanConfig) {
    options.push({ id: 'thoughts', name: 'Show thoughts', description: 'Stream thinking before answering', category: 'thought_level', type: 'boolean', currentValue: session.showThoughts });
  }
  return options;
}

/** Applies session/set_config_option; returns whether the mode changed. Throws -32602 on bad input. */
export function applyConfigOption(session: DemoSession, configId: Json | undefined, value: Json | undefined, booleanConfig: boolean): boolean {
  if (configId === 'mode' && typeof value === 'string') {
    setMode(session, value);
    return true;
  }
  if (configId === 'model' && typeof value === 'string' && MODELS.some((model) => model.value === value)) {
    session.model = value;
    return false;
  }
  if (configId === 'thoughts' && booleanConfig && typeof value === 'boolean') {
    session.showThoughts = value;
    return false;
  }
  throw new RpcError(ErrorCodes.invalidParams, `Invalid config option ${JSON.stringify(configId)} = ${JSON.stringify(value)}`);
}

export function setMode(session: DemoSession, modeId: Json | undefined): void {
  if (typeof modeId !== 'string' || !MODES.some((mode) => mode.id === modeId)) {
    throw new RpcError(ErrorCodes.invalidParams, `Unknown mode: ${JSON.stringify(modeId)}`);
  }
  session.modeId = modeId;
}

export function sessionInfo(session: DemoSession): JsonObject {
  return { sessionId: session.id, cwd: session.cwd, title: session.title, updatedAt: session.updatedAt };
}

/** A short title from the first prompt. */
export function titleFrom(promptText: string): string {
  const oneLine = promptText.replace(/\s+/g, ' ').trim();
  if (!oneLine) return 'Demo session';
  return oneLine.length > 60 ? `${oneLine.slice(0, 57)}…` : oneLine;
}
