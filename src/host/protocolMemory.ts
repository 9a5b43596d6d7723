// Under `auto`, an agent that speaks only ACP v1 answers 1 to an offer of 2 and is started a second time to
// get the v1 client capabilities it missed. Remembering that answer (per agent command line) makes the second
// start a one-off: later starts offer 1 directly. A new agent version (from its v1 answer) is offered 2 again,
// since an upgrade may have brought v2. No vscode here: the extension passes its global state.
import type { AgentConfig } from '../acp/agentProcess';
import { versionsToOffer, type ProtocolSetting } from '../acp/capabilities';

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

/** How one start went: the versions offered in order and what the agent finally answered. */
export interface StartOutcome {
  readonly offered: readonly (1 | 2)[];
  readonly answered: number;
  readonly agentVersion: string | null;
}

export class ProtocolMemory {
  constructor(
    private readonly state: KeyValueState,
    private readonly now: () => number = Date.now,
  ) {}

  /** The versions to offer, in order: the setting's, except that under `auto` a known v1-only agent gets 1 at once. */
  versionsFor(agent: AgentConfig, setting: ProtocolSetting): readonly (1 | 2)[] {
    if (setting === 'auto' && this.answers()[agentKey(agent)]) return [1];
    return versionsToOffer(setting);
  }

  /** After a start under `auto`: remember an agent that settled on 1 after an offer of 2; forget one that answered 2 or changed version. */
  async noteStart(agent: AgentConfig, setting: ProtocolSetting, outcome: StartOutcome): Promise<void> {
    if (setting !== 'auto') return;
    const key = agentKey(agent);
    const answers = { ...this.answers() };
    const known = answers[key];
    if (outcome.answered === 1 && outcome.offered[0] === 2) answers[key] = { agentVersion: outcome.agentVersion, at: this.now() };
    else if (outcome.answered === 1 && known && known.agentVersion === outcome.agentVersion) return;
    else if (known) delete answers[key];
    else return;
    const kept = Object.entries(answers)
      .sort(([, a], [, b]) => b.at - a.at)
      .slice(0, KEPT_AGENTS);
    await this.state.update(PROTOCOL_MEMORY_KEY, Object.fromEntries(kept));
  }

  private answers(): Readonly<Record<string, V1Answer>> {
    const stored = this.state.get(PROTOCOL_MEMORY_KEY);
    if (typeof stored !== 'object' || stored === null) return {};
    const answers: Record<string, V1Answer> = {};
    for (const [key, value] of Object.entries(stored as Record<string, unknown>)) {
      if (typeof value !== 'object' || value === null) continue;
      const { agentVersion, at } = value as Record<string, unknown>;
      if ((typeof agentVersion === 'string' || agentVersion === null) && typeof at === 'number') answers[key] = { agentVersion, at };
    }
    return answers;
  }
}

/** An agent is what runs: its id and command line (a changed command may be another agent). */
function agentKey(agent: AgentConfig): string {
  return JSON.stringify([agent.id, agent.command, ...(agent.args ?? [])]);
}
