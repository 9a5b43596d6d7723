// Under `auto`, an agent that speaks only ACP v1 answers 1 to an offer of 2 and is started a second time to
// get the v1 client capabilities it missed. Remembering that answer (per agent command line) makes the second
// start a one-off: later starts offer 1 first. A new agent version (from its v1 answer), or a week, and the
// agent is offered 2 again, since an upgrade may have brought v2. No vscode here: the extension passes its global state.
import { createHash } from 'node:crypto';
import type { AgentConfig } from '../acp/agentProcess';
import { versionsToOffer, type ProtocolSetting } from '../acp/capabilities';
import { AgentRequestError, InvalidAgentResponseError, UnsupportedProtocolVersionError } from '../acp/errors';

/** What the extension's global state offers (vscode.Memento). */
export interface KeyValueState {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

interface V1Answer {
  /** The agent's own version when it answered 1 (`agentInfo.version`), null when it gave none. */
  readonly agentVersion: string | null;
  readonly at: number;
}

export const PROTOCOL_MEMORY_KEY = 'subchats.agentsAnsweringV1';
/** Agents remembered at most (the oldest answer is forgotten first). */
const KEPT_AGENTS = 50;
/**
 * Global state holds only what the next start needs: per agent its key, the version it named and when. A key or
 * version longer than this (as JSON) is kept as its SHA-256 (still compared for equality), so one entry stays
 * within PROTOCOL_MEMORY_ENTRY_MAX_CHARS and the whole memory within KEPT_AGENTS of them (20,000 chars): an
 * agent once made it 15.7 MB with a 15 MB `agentInfo.version`.
 */
const MAX_FIELD_JSON_CHARS = 160;
export const PROTOCOL_MEMORY_ENTRY_MAX_CHARS = 400;

/** How one start went: the versions offered in order and what the agent finally answered. */
export interface StartOutcome {
  readonly offered: readonly (1 | 2)[];
  readonly answered: number;
  readonly agentVersion: string | null;
  /**
   * The agent answered the offer of 2 (with 1, or with an error) rather than timing out or exiting: only
   * that says it does not speak 2 (a first `npx` download that timed out says nothing).
   */
  readonly answeredOfferOf2: boolean;
}

/** A remembered answer is asked again after this long (an agent may gain v2 without changing version). */
const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** Whether an `initialize` that failed was still an answer of the agent (an error response or an unusable result). */
export function isAgentAnswer(error: unknown): boolean {
  return error instanceof AgentRequestError || error instanceof UnsupportedProtocolVersionError || error instanceof InvalidAgentResponseError;
}

export class ProtocolMemory {
  constructor(
    private readonly state: KeyValueState,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The versions to offer, in order: the setting's, except that under `auto` a known v1-only agent is offered 1
   * first (and 2 after, should it now refuse 1).
   */
  versionsFor(agent: AgentConfig, setting: ProtocolSetting): readonly (1 | 2)[] {
    if (setting === 'auto' && this.fresh(this.answers()[agentKey(agent)])) return [1, 2];
    return versionsToOffer(setting);
  }

  /**
   * After a start: an agent that answered 2 is forgotten (whatever the setting). Under `auto`, one that answered
   * the offer of 2 and settled on 1 is remembered; one remembered that now reports another version is forgotten.
   */
  async noteStart(agent: AgentConfig, setting: ProtocolSetting, outcome: StartOutcome): Promise<void> {
    const key = agentKey(agent);
    const answers = { ...this.answers() };
    const known = answers[key];
    if (outcome.answered === 2 || setting !== 'auto') {
      if (!known || outcome.answered !== 2) return;
      delete answers[key];
    } else if (outcome.offered[0] === 2 && outcome.answered === 1 && outcome.answeredOfferOf2) {
      answers[key] = { agentVersion: versionFingerprint(outcome.agentVersion), at: this.now() };
    } else if (known && this.fresh(known) && known.agentVersion === versionFingerprint(outcome.agentVersion)) {
      return;
    } else if (known) {
      delete answers[key];
    } else {
      return;
    }
    const kept = Object.entries(answers)
      .sort(([, a], [, b]) => b.at - a.at)
      .slice(0, KEPT_AGENTS);
    await this.state.update(PROTOCOL_MEMORY_KEY, Object.fromEntries(kept));
  }

  private fresh(answer: V1Answer | undefined): answer is V1Answer {
    return answer !== undefined && this.now() - answer.at < MAX_AGE_MS;
  }

  private answers(): Readonly<Record<string, V1Answer>> {
    const stored = this.state.get(PROTOCOL_MEMORY_KEY);
    if (typeof stored !== 'object' || stored === null) return {};
    const answers: Record<string, V1Answer> = {};
    for (const [key, value] of Object.entries(stored as Record<string, unknown>)) {
      if (typeof value !== 'object' || value === null) continue;
      const { agentVersion, at } = value as Record<string, unknown>;
      if ((typeof agentVersion === 'string' || agentVersion === null) && typeof at === 'number') answers[shortened(key)] = { agentVersion: versionFingerprint(agentVersion), at };
    }
    return answers;
  }
}

/** An agent is what runs: its id and command line (a changed command may be another agent). */
function agentKey(agent: AgentConfig): string {
  return shortened(JSON.stringify([agent.id, agent.command, ...(agent.args ?? [])]));
}

/** The agent's own version as remembered: a string (shortened), or null when it gave none or something else. */
function versionFingerprint(version: unknown): string | null {
  return typeof version === 'string' ? shortened(version) : null;
}

/** The text itself when short, else its SHA-256: equal texts stay equal, and the stored form is bounded. */
function shortened(text: string): string {
  if (text.length < MAX_FIELD_JSON_CHARS && JSON.stringify(text).length <= MAX_FIELD_JSON_CHARS) return text;
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}
