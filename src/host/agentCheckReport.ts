// What "Check Agent" tells the user: an agent's `initialize` answer in words, or why it could not be had.
// Pure (no vscode, no process): every agent string in it is made inert for VS Code's UI.
import { readAgentFeatures, type AgentFeatures, type ProtocolVersion } from '../acp/agentFeatures';
import type { AgentConfig } from '../acp/agentProcess';
import { delegationSupport } from '../acp/delegation';
import { AgentExitedError, AgentRequestError, AgentStartError, AgentTimeoutError, formatDuration, UnsupportedProtocolVersionError } from '../acp/errors';
import { isAdvertised, promptCapabilitiesOf, reattachMethod } from '../store/agentCapabilities';
import type { PromptCapabilities } from '../protocol/transcript';
import { isObject, type JsonObject } from '../store/wireMessage';
import { installHint } from './agentPresets';
import { inertUiText } from './uiText';
import { t } from '../presentation/l10n';

export interface AgentCheckReport {
  /** One sentence for a notification. */
  readonly summary: string;
  /** The details, one fact a line (for an output channel). */
  readonly lines: readonly string[];
}

const PROMPT_FEATURES: readonly (readonly [keyof PromptCapabilities, () => string])[] = [
  ['image', () => t('images')],
  ['audio', () => t('audio')],
  ['embeddedContext', () => t('embedded files')],
];

/** Where each version keeps what the report reads, and the keys it reads there (the rest are listed as extra). */
const LAYOUT = {
  1: { info: 'agentInfo', capabilities: 'agentCapabilities', session: 'sessionCapabilities', known: ['loadSession', 'sessionCapabilities', 'promptCapabilities', 'mcpCapabilities', 'auth'], knownSession: ['list', 'resume', 'close', 'fork', 'additionalDirectories', 'subagents'] },
  2: { info: 'info', capabilities: 'capabilities', session: 'session', known: ['session', 'auth'], knownSession: ['prompt', 'mcp', 'fork', 'additionalDirectories'] },
} as const;

export function commandLine(agent: Pick<AgentConfig, 'command' | 'args'>): string {
  return [agent.command, ...(agent.args ?? [])].join(' ');
}

/** The first line of every report: which agent, run how. */
function heading(agent: AgentConfig): string {
  return t('Check of "{0}" (runs: {1})', inertUiText(agent.name), inertUiText(commandLine(agent), 300));
}

function record(value: unknown): JsonObject {
  return isObject(value) ? value : {};
}

function text(value: unknown, max = 120): string | undefined {
  return typeof value === 'string' && value.trim() ? inertUiText(value.trim(), max) : undefined;
}

function yesNo(entries: readonly (readonly [string, boolean])[]): string {
  return entries.map(([label, granted]) => (granted ? t('{0} yes', label) : t('{0} no', label))).join(', ');
}

/** "offered 2, then restarted and offered 1": the versions a check offered, in order. */
function offersText(offered: readonly ProtocolVersion[]): string {
  return offered.map((version, index) => (index === 0 ? t('offered {0}', version) : t('then restarted and offered {0}', version))).join(', ');
}

function protocolLine(answered: string, offered: readonly ProtocolVersion[] | undefined): string {
  return offered?.length ? t('ACP protocol version: {0} ({1})', answered, offersText(offered)) : t('ACP protocol version: {0}', answered);
}

/** "OpenCode 1.18.33", or the configured name when the agent does not say who it is. */
function identity(agent: AgentConfig, info: JsonObject): string {
  const name = text(info['title']) ?? text(info['name']) ?? inertUiText(agent.name);
  const version = text(info['version'], 40);
  return version ? `${name} ${version}` : name;
}

function authLines(features: AgentFeatures): string[] {
  if (features.authMethods.length === 0) return [features.logout ? t('Sign-in methods: none offered (log out supported)') : t('Sign-in methods: none offered')];
  return [
    features.logout ? t('Sign-in methods (log out supported):') : t('Sign-in methods:'),
    ...features.authMethods.map((method) => {
      const description = text(method.description, 200);
      const name = text(method.name) ?? t('unnamed');
      const shown = method['type'] === 'terminal' ? t('{0} (in a terminal)', name) : name;
      return `  - ${shown}${description ? `: ${description}` : ''}`;
    }),
  ];
}

/** Sessions beyond new/prompt/cancel, as the connection will allow them (ACP 2 has no session/load). */
function sessionFeatures(features: AgentFeatures, session: JsonObject): [string, boolean][] {
  return [
    ...(features.version === 1 ? [['load', features.offers('load')] as [string, boolean]] : []),
    ['list', features.offers('list')],
    ['resume', features.offers('resume')],
    ['close', features.offers('close')],
    ['fork', isAdvertised(session['fork'])],
  ];
}

function sessionsLine(features: AgentFeatures, session: JsonObject, sessionsAdvertised: boolean): string {
  if (!sessionsAdvertised) return t('Sessions: none (capabilities.session not advertised)');
  return t('Sessions: {0}', yesNo([...sessionFeatures(features, session), [t('extra folders'), features.additionalDirectories]]));
}

function reattachLine(capabilities: JsonObject, version: ProtocolVersion): string {
  const method = reattachMethod(capabilities, version);
  return t('Saved sessions reopen with: {0}', method ?? t('nothing (they cannot be reopened)'));
}

function subagentLine(capabilities: JsonObject, session: JsonObject, version: ProtocolVersion): string {
  if (version === 2) return t('Subagents: part of ACP 2 (shown as the agent reports them)');
  if (!isObject(session['subagents'])) return t('Subagent delegation: not advertised (subagents still show as the agent reports them)');
  const support = delegationSupport(capabilities);
  return t('Subagent delegation: {0}', yesNo([[t('choose a subagent in a prompt'), support.promptDelegation], [t('in the background'), support.background]]));
}

/** v1: `mcpCapabilities` booleans beside stdio (always there); v2: `session.mcp` markers, stdio included. */
function mcpLine(capabilities: JsonObject, session: JsonObject, version: ProtocolVersion): string {
  if (version === 2) {
    const mcp = record(session['mcp']);
    return t('MCP servers: {0}', yesNo([['stdio', isAdvertised(mcp['stdio'])], ['HTTP', isAdvertised(mcp['http'])], ['ACP', isAdvertised(mcp['acp'])]]));
  }
  const mcp = record(capabilities['mcpCapabilities']);
  return t('MCP servers: {0}', `stdio, ${yesNo([['HTTP', mcp['http'] === true], ['SSE', mcp['sse'] === true]])}`);
}

/** Reads an `initialize` result leniently: whatever is missing or malformed counts as not advertised. */
export function describeInitialize(agent: AgentConfig, response: unknown, offered?: readonly ProtocolVersion[]): AgentCheckReport {
  const result = record(response);
  const version: ProtocolVersion = result['protocolVersion'] === 2 ? 2 : 1;
  const layout = LAYOUT[version];
  // The connection's and the store's readings: what a session will allow is what the check reports.
  const features = readAgentFeatures(result, version);
  const capabilities = record(result[layout.capabilities]);
  const session = record(capabilities[layout.session]);
  const sessionsAdvertised = version === 1 || isObject(capabilities['session']);
  const prompt = promptCapabilitiesOf(capabilities, version);
  const who = identity(agent, record(result[layout.info]));
  const protocol = typeof result['protocolVersion'] === 'number' ? String(result['protocolVersion']) : t('not stated');
  const known = (keys: readonly string[]) => (key: string) => !keys.includes(key);
  const other = [...Object.keys(capabilities).filter(known(layout.known)), ...Object.keys(session).filter(known(layout.knownSession)).map((key) => `${layout.session}.${key}`)];
  const lines = [
    heading(agent),
    t('Agent: {0}', who),
    protocolLine(protocol, offered),
    sessionsLine(features, session, sessionsAdvertised),
    reattachLine(capabilities, version),
    subagentLine(capabilities, session, version),
    t('Prompt content: text and links, {0}', yesNo(PROMPT_FEATURES.map(([key, label]) => [label(), prompt[key]]))),
    mcpLine(capabilities, session, version),
    ...authLines(features),
    ...(other.length ? [t('Also advertised (not used by Subchats): {0}', inertUiText(other.join(', '), 300))] : []),
  ];
  const can = sessionFeatures(features, session).filter(([, granted]) => granted).map(([label]) => label);
  const sessions = !sessionsAdvertised ? t('none') : can.length ? can.join(', ') : t('new only');
  const summary = t('{0} answered (ACP {1}). Sessions: {2}.', who, protocol, sessions);
  return { summary, lines };
}

function lastStderrLines(stderr: string): string[] {
  const trimmed = stderr.trim();
  return trimmed ? [t('Last stderr output:'), ...trimmed.split(/\r?\n/).slice(-5).map((line) => `  ${inertUiText(line, 300)}`)] : [];
}

/** Why the check failed, and what to do about it. */
export function describeCheckFailure(agent: AgentConfig, error: unknown, stderrTail = '', offered?: readonly ProtocolVersion[]): AgentCheckReport {
  const name = inertUiText(agent.name);
  const command = inertUiText(agent.command, 200);
  const install = installHint(agent);
  const fixSetting = t('Or change its "command" in the subchats.agents setting.');
  let summary: string;
  if (error instanceof AgentStartError && error.code === 'ENOENT') {
    summary = t('"{0}" is not installed: the command "{1}" was not found on PATH. {2}', name, command, install ?? fixSetting);
  } else if (error instanceof AgentStartError) {
    summary = t('"{0}" could not be started: {1}', name, inertUiText(error.message, 300));
  } else if (error instanceof AgentTimeoutError) {
    summary = t('"{0}" started but did not answer initialize within {1}, so it was stopped. Does "{2}" really start an ACP agent on stdio?', name, formatDuration(error.timeoutMs), inertUiText(commandLine(agent), 200));
  } else if (error instanceof AgentExitedError) {
    summary = install ? t('"{0}" exited before answering initialize ({1}). Is it installed? {2}', name, exitText(error), install) : t('"{0}" exited before answering initialize ({1}).', name, exitText(error));
  } else if (error instanceof UnsupportedProtocolVersionError) {
    summary = t('"{0}" speaks an ACP version Subchats does not ({1}; Subchats: {2}).', name, inertUiText(JSON.stringify(error.agentVersion) ?? t('none'), 40), error.supported.join(', '));
  } else if (error instanceof AgentRequestError) {
    summary = t('"{0}" answered initialize with an error: {1}', name, inertUiText(error.agentMessage || t('no message'), 300));
  } else {
    summary = t('Checking "{0}" failed: {1}', name, inertUiText(error instanceof Error ? error.message : String(error), 300));
  }
  const protocol = offered?.length ? [protocolLine(t('none agreed'), offered)] : [];
  return { summary, lines: [heading(agent), summary, ...protocol, ...lastStderrLines(error instanceof AgentExitedError ? error.exit.stderrTail : stderrTail)] };
}

function exitText(error: AgentExitedError): string {
  const { code, signal } = error.exit;
  if (signal) return t('signal {0}', signal);
  return code === null ? t('it closed its connection') : t('exit code {0}', code);
}
