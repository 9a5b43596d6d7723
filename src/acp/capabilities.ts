// What this client tells agents about itself, and how to read what agents advertise.
import type { ClientCapabilities } from '@agentclientprotocol/sdk/unstable';
import { COPILOT_EVENTS, COPILOT_META_KEY } from '../store/dialects/copilot';
import { OPENCODE_CHILD_UPDATES_KEY } from '../store/dialects/opencode';
import { DEVIN_SUBAGENT_SUPPORT_KEY } from '../store/dialects/devin';
import type { ClientHost } from './clientHost';

export const PROTOCOL_VERSION = 1;
export const SUPPORTED_PROTOCOL_VERSIONS: readonly number[] = [1, 2];

/**
 * Setting `subchats.protocolVersion`: which ACP version to offer. `auto` offers 2 and, when the agent fails
 * to initialize at 2 (or answers 1), restarts it and offers 1.
 */
export type ProtocolSetting = 'auto' | 1 | 2;

export function readProtocolSetting(raw: unknown): ProtocolSetting {
  if (raw === 2 || raw === '2') return 2;
  if (raw === 'auto') return 'auto';
  return 1;
}

/** The versions to offer, in order (the next one after a failed start). */
export function versionsToOffer(setting: ProtocolSetting): readonly (1 | 2)[] {
  return setting === 'auto' ? [2, 1] : [setting];
}

/**
 * v2 client capabilities: no fs/terminal (v2 agents own their terminals), no subagents marker (baseline);
 * only elicitation, as markers.
 */
export function buildV2ClientCapabilities(host: Pick<ClientHost, 'elicit' | 'elicitationModes'>): Record<string, unknown> {
  const elicitation = buildClientCapabilities(host).elicitation;
  return elicitation ? { elicitation } : {};
}

export function buildClientCapabilities(host: Pick<ClientHost, 'elicit' | 'elicitationModes'>): ClientCapabilities {
  const capabilities: ClientCapabilities = {
    fs: { readTextFile: true, writeTextFile: true },
    terminal: true,
    session: { notices: {} },
    subagents: {},
    // GitHub Copilot CLI reports which subagent said what only through its own event stream, on request;
    // opencode streams its subagents' own sessions only on request too (opencode/session/child_update), and
    // Devin tags its subagents' updates (cognition.ai/subagent_*) only for a client that says it reads them.
    _meta: { [COPILOT_META_KEY]: { events: [...COPILOT_EVENTS] }, [OPENCODE_CHILD_UPDATES_KEY]: true, [DEVIN_SUBAGENT_SUPPORT_KEY]: true },
  };
  if (host.elicit) {
    const modes = host.elicitationModes ?? ['form'];
    capabilities.elicitation = {
      ...(modes.includes('form') ? { form: {} } : {}),
      ...(modes.includes('url') ? { url: {} } : {}),
    };
  }
  return capabilities;
}
