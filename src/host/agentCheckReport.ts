// What "Check Agent" tells the user: an agent's `initialize` answer in words, or why it could not be had.
// Pure (no vscode, no process): every agent string in it is made inert for VS Code's UI.
import type { AgentConfig } from '../acp/agentProcess';
import { AgentExitedError, AgentRequestError, AgentStartError, AgentTimeoutError, formatDuration, UnsupportedProtocolVersionError } from '../acp/errors';
import { isAdvertised, promptCapabilitiesOf } from '../store/agentCapabilities';
import type { PromptCapabilities } from '../protocol/transcript';
import { isObject, type JsonObject } from '../store/wireMessage';
import { installHint } from './agentPresets';
import { inertUiText } from './uiText';

export interface AgentCheckReport {
  /** One sentence for a notification. */
  readonly summary: string;
  /** The details, one fact a line (for an output channel). */
  readonly lines: readonly string[];
}

/** The capabilities Subchats reads, with what it uses each for. */
const SESSION_FEATURES: readonly (readonly [string, string])[] = [
  ['list', 'list'],
  ['resume', 'resume'],
  ['close', 'close'],
  ['fork', 'fork'],
  ['additionalDirectories', 'extra folders'],
];

const PROMPT_FEATURES: readonly (readonly [keyof PromptCapabilities, string])[] = [
  ['image', 'images'],
  ['audio', 'audio'],
  ['embeddedContext', 'embedded files'],
];

const KNOWN_CAPABILITIES = new Set(['loadSession', 'sessionCapabilities', 'promptCapabilities', 'mcpCapabilities', 'auth']);

export function commandLine(agent: Pick<AgentConfig, 'command' | 'args'>): string {
  return [agent.command, ...(agent.args ?? [])].join(' ');
}

function record(value: unknown): JsonObject {
  return isObject(value) ? value : {};
}

function text(value: unknown, max = 120): string | undefined {
  return typeof value === 'string' && value.trim() ? inertUiText(value.trim(), max) : undefined;
}

function yesNo<K extends string>(entries: readonly (readonly [K, string])[], granted: (key: K) => boolean): string {
  return entries.map(([key, label]) => `${label} ${granted(key) ? 'yes' : 'no'}`).join(', ');
}

/** "OpenCode 1.18.33", or the configured name when the agent does not say who it is. */
function identity(agent: AgentConfig, info: JsonObject): string {
  const name = text(info['title']) ?? text(info['name']) ?? inertUiText(agent.name);
  const version = text(info['version'], 40);
  return version ? `${name} ${version}` : name;
}

function authLines(result: JsonObject, capabilities: JsonObject): string[] {
  const methods = Array.isArray(result['authMethods']) ? result['authMethods'].filter(isObject) : [];
  const logout = isAdvertised(record(capabilities['auth'])['logout']) ? ' (log out supported)' : '';
  if (methods.length === 0) return [`Sign-in methods: none offered${logout}`];
  return [
    `Sign-in methods${logout}:`,
    ...methods.map((method) => {
      const name = text(method['name']) ?? text(method['id']) ?? 'unnamed';
      const description = text(method['description'], 200);
      return `  - ${name}${description ? `: ${description}` : ''}`;
    }),
  ];
}

/** Reads an `initialize` result leniently: whatever is missing or malformed counts as not advertised. */
export function describeInitialize(agent: AgentConfig, response: unknown): AgentCheckReport {
  const result = record(response);
  const capabilities = record(result['agentCapabilities']);
  const sessions = record(capabilities['sessionCapabilities']);
  // The store's reading: what the prompt box will allow is what the check reports.
  const prompt = promptCapabilitiesOf(capabilities);
  const mcp = record(capabilities['mcpCapabilities']);
  const subagents = record(sessions['subagents']);
  const who = identity(agent, record(result['agentInfo']));
  const protocol = typeof result['protocolVersion'] === 'number' ? String(result['protocolVersion']) : 'not stated';
  const loads = capabilities['loadSession'] === true;
  const other = [...Object.keys(capabilities).filter((key) => !KNOWN_CAPABILITIES.has(key)), ...Object.keys(sessions).filter((key) => key !== 'subagents' && !SESSION_FEATURES.some(([known]) => known === key)).map((key) => `sessionCapabilities.${key}`)];
  const lines = [
    `Check of "${inertUiText(agent.name)}" (runs: ${inertUiText(commandLine(agent), 300)})`,
    `Agent: ${who}`,
    `ACP protocol version: ${protocol}`,
    `Sessions: load ${loads ? 'yes' : 'no'}, ${yesNo(SESSION_FEATURES, (key) => isAdvertised(sessions[key]))}`,
    isObject(sessions['subagents'])
      ? `Subagent delegation: choose a subagent in a prompt ${isAdvertised(subagents['promptDelegation']) ? 'yes' : 'no'}, in the background ${isAdvertised(subagents['background']) ? 'yes' : 'no'}`
      : 'Subagent delegation: not advertised (subagents still show as the agent reports them)',
    `Prompt content: text and links, ${yesNo(PROMPT_FEATURES, (key) => prompt[key])}`,
    `MCP servers: stdio, ${yesNo([['http', 'HTTP'], ['sse', 'SSE']], (key) => mcp[key] === true)}`,
    ...authLines(result, capabilities),
    ...(other.length ? [`Also advertised (not used by Subchats): ${inertUiText(other.join(', '), 300)}`] : []),
  ];
  const can = [loads && 'load', ...SESSION_FEATURES.filter(([key]) => key !== 'additionalDirectories' && isAdvertised(sessions[key])).map(([, label]) => label)].filter(Boolean);
  const summary = `${who} answered (ACP ${protocol}). Sessions: ${can.length ? can.join(', ') : 'new only'}.`;
  return { summary, lines };
}

function lastStderrLines(stderr: string): string[] {
  const trimmed = stderr.trim();
  return trimmed ? ['Last stderr output:', ...trimmed.split(/\r?\n/).slice(-5).map((line) => `  ${inertUiText(line, 300)}`)] : [];
}

/** Why the check failed, and what to do about it. */
export function describeCheckFailure(agent: AgentConfig, error: unknown, stderrTail = ''): AgentCheckReport {
  const name = inertUiText(agent.name);
  const command = inertUiText(agent.command, 200);
  const install = installHint(agent);
  const fixSetting = 'Or change its "command" in the subchats.agents setting.';
  let summary: string;
  if (error instanceof AgentStartError && error.code === 'ENOENT') {
    summary = `"${name}" is not installed: the command "${command}" was not found on PATH. ${install ?? fixSetting}`;
  } else if (error instanceof AgentStartError) {
    summary = `"${name}" could not be started: ${inertUiText(error.message, 300)}`;
  } else if (error instanceof AgentTimeoutError) {
    summary = `"${name}" started but did not answer initialize within ${formatDuration(error.timeoutMs)}, so it was stopped. Does "${inertUiText(commandLine(agent), 200)}" really start an ACP agent on stdio?`;
  } else if (error instanceof AgentExitedError) {
    summary = `"${name}" exited before answering initialize (${exitText(error)}).${install ? ` Is it installed? ${install}` : ''}`;
  } else if (error instanceof UnsupportedProtocolVersionError) {
    summary = `"${name}" speaks an ACP version Subchats does not (${inertUiText(JSON.stringify(error.agentVersion) ?? 'none', 40)}; Subchats: ${error.supported.join(', ')}).`;
  } else if (error instanceof AgentRequestError) {
    summary = `"${name}" answered initialize with an error: ${inertUiText(error.agentMessage || 'no message', 300)}`;
  } else {
    summary = `Checking "${name}" failed: ${inertUiText(error instanceof Error ? error.message : String(error), 300)}`;
  }
  return { summary, lines: [`Check of "${name}" (runs: ${inertUiText(commandLine(agent), 300)})`, summary, ...lastStderrLines(error instanceof AgentExitedError ? error.exit.stderrTail : stderrTail)] };
}

function exitText(error: AgentExitedError): string {
  const { code, signal } = error.exit;
  if (signal) return `signal ${signal}`;
  return code === null ? 'it closed its connection' : `exit code ${code}`;
}
