// The agents Subchats offers out of the box, merged with the user's `subchats.agents` setting.
import type { AgentConfig } from '../acp/agentProcess';
import { t } from '../presentation/l10n';

export const DEMO_AGENT_ID = 'demo';

export interface DemoAgentOptions {
  /** Path of the bundled CLI (dist/cli.js). */
  readonly cliPath: string;
  /** The Node binary (inside VS Code: its own executable, run as Node). */
  readonly nodePath: string;
  readonly pace: number;
  readonly dialect: string;
  /** Minimum ms the Explorer branch keeps working (0: no minimum), so a child can be cancelled by hand. */
  readonly childDuration?: number;
  /** Whether the demo agent offers `_session/steering` (default true). */
  readonly steering?: boolean;
}

export function demoAgentConfig(options: DemoAgentOptions): AgentConfig {
  return {
    id: DEMO_AGENT_ID,
    name: 'Demo Agent (built in)',
    builtIn: true,
    command: options.nodePath,
    args: [
      options.cliPath,
      'demo-agent',
      '--pace',
      String(options.pace),
      '--dialect',
      options.dialect,
      ...(options.childDuration ? ['--child-duration', String(options.childDuration)] : []),
      ...(options.steering === false ? ['--no-steering'] : []),
    ],
    // VS Code's executable is Electron; this makes it behave as plain Node for the child.
    env: { ELECTRON_RUN_AS_NODE: '1' },
  };
}

const V1_ONLY = 'the version Subchats was tested with speaks only ACP v1';

// Pinned: `npx -y name` would run whatever version (or a repository's own node_modules copy) it finds.
export const AGENT_PRESETS: readonly AgentConfig[] = [
  {
    id: 'claude-code',
    name: 'Claude Code',
    command: 'npx',
    args: ['-y', '@agentclientprotocol/claude-agent-acp@0.101.0'],
    // Its v2 drops `_session/steering` (answers -32601): at v1 a message typed during a turn reaches Claude at once.
    prefersV1: 'its v1 takes messages during a turn (steering) and its v2 does not',
  },
  { id: 'codex', name: 'Codex', command: 'npx', args: ['-y', '@agentclientprotocol/codex-acp@2.6.0'] },
  // `--experimental-acp` is a deprecated alias in gemini-cli 0.61.0.
  // These answer v1 to an offer of v2: offering v1 first saves a second start on a fresh profile (an update that
  // speaks v2 still answers v1 here; `subchats.protocolVersion: "2"` offers it v2).
  { id: 'gemini', name: 'Gemini CLI', command: 'gemini', args: ['--acp'], prefersV1: V1_ONLY },
  { id: 'qwen-code', name: 'qwen-code', command: 'qwen', args: ['--acp'], prefersV1: V1_ONLY },
  { id: 'opencode', name: 'opencode', command: 'opencode', args: ['acp'], prefersV1: V1_ONLY },
  { id: 'copilot', name: 'GitHub Copilot CLI', command: 'copilot', args: ['--acp'], prefersV1: V1_ONLY },
];

/**
 * What a preset needs before it can start. The installed CLIs are the user's own tools (they keep their own
 * logins and update themselves), so they are not pinned; `testedVersion` is the one whose wire Subchats was
 * checked against. npx presets fetch their pinned package themselves and need only Node.js.
 */
export interface PresetSetup {
  /** The shell command that installs it; absent for npx presets. */
  readonly install?: string;
  readonly testedVersion: string;
  /** Credentials: API key variable, login command. */
  readonly needs: string;
}

export const PRESET_SETUP: Readonly<Record<string, PresetSetup>> = {
  'claude-code': { testedVersion: '0.101.0', needs: '`ANTHROPIC_API_KEY` or a Claude login' },
  codex: { testedVersion: '2.6.0', needs: '`OPENAI_API_KEY` or a ChatGPT login' },
  gemini: { install: 'npm install -g @google/gemini-cli', testedVersion: '0.61.0', needs: '`GEMINI_API_KEY` or a Google login (run `gemini` once)' },
  'qwen-code': { install: 'npm install -g @qwen-code/qwen-code', testedVersion: '0.24.4', needs: '`OPENAI_API_KEY` (with `OPENAI_BASE_URL` and `OPENAI_MODEL` for another compatible provider)' },
  opencode: { install: 'npm install -g opencode-ai', testedVersion: '1.18.33', needs: 'a provider login (`opencode auth login`)' },
  copilot: { install: 'npm install -g @github/copilot', testedVersion: '1.0.102', needs: 'a GitHub Copilot subscription and `copilot login`' },
};

/** How to install the command an agent runs, when Subchats knows it (presets only). */
export function installHint(agent: Pick<AgentConfig, 'id' | 'command'>): string | undefined {
  const preset = AGENT_PRESETS.find((candidate) => candidate.id === agent.id && candidate.command === agent.command);
  if (!preset) return undefined;
  if (preset.command === 'npx') return t('Install Node.js (which brings `npx`); the pinned package is fetched on first start.');
  const install = PRESET_SETUP[preset.id]?.install;
  return install ? t('Install it with `{0}` (tested with {1}).', install, PRESET_SETUP[preset.id]!.testedVersion) : undefined;
}

export interface AgentSettingProblem {
  readonly index: number;
  readonly message: string;
}

/** Validates the `subchats.agents` setting leniently: bad entries are reported and skipped, not fatal. */
export function readAgentSettings(raw: unknown): { agents: AgentConfig[]; problems: AgentSettingProblem[] } {
  const agents: AgentConfig[] = [];
  const problems: AgentSettingProblem[] = [];
  if (!Array.isArray(raw)) return { agents, problems: raw === undefined ? [] : [{ index: -1, message: 'subchats.agents must be a list' }] };
  raw.forEach((item, index) => {
    if (typeof item !== 'object' || item === null) {
      problems.push({ index, message: 'entry is not an object' });
      return;
    }
    const entry = item as Record<string, unknown>;
    if (typeof entry['id'] !== 'string' || entry['id'] === '' || typeof entry['command'] !== 'string' || entry['command'] === '') {
      problems.push({ index, message: 'entry needs a non-empty "id" and "command"' });
      return;
    }
    const args = Array.isArray(entry['args']) ? entry['args'].filter((a): a is string => typeof a === 'string') : [];
    const env: Record<string, string> = {};
    if (typeof entry['env'] === 'object' && entry['env'] !== null) {
      for (const [k, v] of Object.entries(entry['env'] as Record<string, unknown>)) if (typeof v === 'string') env[k] = v;
    }
    const registryId = typeof entry['registryId'] === 'string' ? { registryId: entry['registryId'] } : {};
    agents.push({ id: entry['id'], name: typeof entry['name'] === 'string' ? entry['name'] : entry['id'], command: entry['command'], args, env, ...registryId });
  });
  return { agents, problems };
}

/**
 * Demo first, then presets, with user entries replacing presets of the same id and adding new ones. Presets
 * and the entries Add Agent wrote from the registry run from `presetCwd` (a folder of the extension's own), never
 * from the workspace: there `npx` would prefer the repository's `node_modules`. Sessions still get the workspace
 * folder as their cwd.
 */
export function mergeAgents(demo: AgentConfig, user: readonly AgentConfig[], presetCwd?: string): AgentConfig[] {
  const byId = new Map<string, AgentConfig>();
  const ownFolder = (agent: AgentConfig) => (presetCwd ? { ...agent, processCwd: presetCwd } : agent);
  byId.set(demo.id, demo);
  for (const agent of AGENT_PRESETS) byId.set(agent.id, ownFolder(agent));
  for (const agent of user) byId.set(agent.id, agent.registryId ? ownFolder(agent) : agent);
  return [...byId.values()];
}
