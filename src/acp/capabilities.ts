// What this client tells agents about itself, and how to read what agents advertise.
import type { ClientCapabilities } from '@agentclientprotocol/sdk/unstable';
import { COPILOT_EVENTS, COPILOT_META_KEY } from '../store/copilotDialect';
import { OPENCODE_CHILD_UPDATES_KEY } from '../store/opencodeDialect';
import type { ClientHost } from './clientHost';

export const PROTOCOL_VERSION = 1;
export const SUPPORTED_PROTOCOL_VERSIONS: readonly number[] = [1];

export function buildClientCapabilities(host: Pick<ClientHost, 'elicit' | 'elicitationModes'>): ClientCapabilities {
  const capabilities: ClientCapabilities = {
    fs: { readTextFile: true, writeTextFile: true },
    terminal: true,
    session: { notices: {} },
    subagents: {},
    // GitHub Copilot CLI reports which subagent said what only through its own event stream, on request;
    // opencode streams its subagents' own sessions only on request too (opencode/session/child_update).
    _meta: { [COPILOT_META_KEY]: { events: [...COPILOT_EVENTS] }, [OPENCODE_CHILD_UPDATES_KEY]: true },
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
