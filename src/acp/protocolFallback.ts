// When to restart an agent to offer the next ACP version (setting `auto`: 2, then 1), one rule for a session
// start and for "Check Agent". Pure: the caller spawns, initializes and stops the processes.
import type { ProtocolVersion } from './agentFeatures';
import { AgentStartError } from './errors';

/** How one `initialize` at `versions[attempt]` ended: the version the agent answered, or the error. */
export type InitializeOutcome = { readonly answered: ProtocolVersion } | { readonly error: unknown };

export interface Restart {
  /** The version to offer a fresh agent process. */
  readonly offer: ProtocolVersion;
  /** Why, for the log. */
  readonly why: string;
}

/**
 * A restart at the next version when there is one and the agent failed at this one, or answered the next one
 * (it then gets that version's client capabilities, e.g. v1 files, terminals and subagents); else none.
 * A command that could not be started is not started again.
 */
export function restartAfter(versions: readonly ProtocolVersion[], attempt: number, outcome: InitializeOutcome): Restart | undefined {
  const offered = versions[attempt];
  const offer = versions[attempt + 1];
  if (offered === undefined || offer === undefined) return undefined;
  if ('error' in outcome) {
    // A command that cannot be run at all will not run for another version either.
    if (outcome.error instanceof AgentStartError) return undefined;
    const reason = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
    return { offer, why: `did not initialize at ACP v${offered} (${reason}); restarting it to offer v${offer}` };
  }
  if (outcome.answered !== offer) return undefined;
  return { offer, why: `answered ACP v${offer}; restarting it to offer v${offer} with its client capabilities` };
}
