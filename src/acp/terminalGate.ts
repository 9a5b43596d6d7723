// Decides whether a `terminal/create` may run (setting subchats.terminals: ask, allow or deny).
//
// `ask` does not ask twice for the same thing: a command the user already allowed through the agent's own
// `session/request_permission` runs without a second question. terminal/create carries no toolCallId, so the
// match is the best honest one: the newest permission of that session answered with an allow option, for an
// `execute` tool call that is still open and whose title or raw input contains the exact command line; each
// such answer covers one terminal. Anything else is asked about, naming the agent, session, command and cwd.
//
// Environment overrides that change what runs (PATH, LD_*, NODE_OPTIONS, …) are never covered by an earlier
// answer or by `allow`: with `ask` they are shown in the question (allow once only), otherwise refused.
import * as path from 'node:path';
import { isToolCallOpen } from '../store/sessionState';
import type { SessionStore } from '../store/sessionStore';
import type { AccessDecision, TerminalQuestion } from './clientHost';
import { ClientRequestError } from './errors';

export type TerminalPolicy = 'ask' | 'allow' | 'deny';

const RISKY_ENV =
  /^(PATH|PATHEXT|LD_\w*|DYLD_\w*|NODE_OPTIONS|NODE_PATH|BASH_ENV|ENV|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|IFS|ZDOTDIR|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|PERL5LIB|PERL5OPT|RUBYLIB|RUBYOPT|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|CLASSPATH|GIT_SSH|GIT_SSH_COMMAND|GIT_EXEC_PATH|GIT_ASKPASS|SSH_ASKPASS|GIT_CONFIG\w*|HOME|TMPDIR|COMSPEC)$/i;

export function riskyEnvOverrides(env: readonly { readonly name: string; readonly value: string }[]): { name: string; value: string }[] {
  return env.filter((variable) => RISKY_ENV.test(variable.name)).map(({ name, value }) => ({ name, value }));
}

export interface TerminalRequestFacts {
  readonly sessionId: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: readonly { readonly name: string; readonly value: string }[];
}

export interface TerminalGateOptions {
  readonly policy: () => TerminalPolicy;
  readonly store: SessionStore;
  readonly agentName: string;
  readonly ask?: (question: TerminalQuestion) => Promise<AccessDecision>;
}

export class TerminalGate {
  /** Permission entries already spent on a terminal (one answer, one command). */
  private readonly usedPermissions = new Set<string>();
  /** Per session, the commands the user allowed for the rest of the session. */
  private readonly granted = new Map<string, Set<string>>();

  constructor(private readonly options: TerminalGateOptions) {}

  /** Resolves when the command may run; throws a ClientRequestError the agent can read otherwise. */
  async authorize(request: TerminalRequestFacts): Promise<void> {
    const policy = this.options.policy();
    const commandLine = [request.command, ...request.args].join(' ');
    if (policy === 'deny') throw refused(`Terminals are turned off (setting subchats.terminals is "deny"); "${commandLine}" was not run.`);
    const riskyEnv = riskyEnvOverrides(request.env);
    if (riskyEnv.length && policy !== 'ask') {
      throw refused(`terminal/create may not override ${riskyEnv.map((v) => v.name).join(', ')}; "${commandLine}" was not run.`);
    }
    if (!riskyEnv.length) {
      if (policy === 'allow') return;
      if (this.granted.get(request.sessionId)?.has(request.command)) return;
      if (this.consumeMatchingPermission(request)) return;
    }
    const decision = this.options.ask
      ? await this.options.ask({ agentName: this.options.agentName, sessionId: request.sessionId, sessionLabel: this.options.store.getSession(request.sessionId)?.label, command: request.command, args: request.args, cwd: request.cwd, riskyEnv })
      : 'deny';
    if (decision === 'deny') throw refused(`The user did not allow running "${commandLine}".`);
    if (decision === 'session' && !riskyEnv.length) {
      const commands = this.granted.get(request.sessionId) ?? new Set<string>();
      commands.add(request.command);
      this.granted.set(request.sessionId, commands);
    }
  }

  private consumeMatchingPermission(request: TerminalRequestFacts): boolean {
    const session = this.options.store.getSession(request.sessionId);
    if (!session) return false;
    // Permissions of a virtual child (Claude, qwen) live on the child record but share the wire session.
    const records = [session, ...session.childIds.map((id) => this.options.store.getSession(id)).filter((child) => child !== undefined)];
    const wanted = commandLines(request.command, request.args);
    for (const record of records) {
      for (let index = record.entries.length - 1; index >= 0; index--) {
        const entry = record.entries[index]!;
        if (entry.kind !== 'permission' || entry.outcome !== 'selected' || !entry.toolCallId || this.usedPermissions.has(`${record.id}\0${entry.id}`)) continue;
        const option = entry.options.find((o) => o.optionId === entry.optionId);
        if (!option?.kind.startsWith('allow')) continue;
        const call = record.toolCalls[entry.toolCallId];
        if (!call || call.kind !== 'execute' || !isToolCallOpen(call.status)) continue;
        const described = [call.title, ...stringsIn(call.rawInput)].map(squash);
        if (!described.some((text) => wanted.some((line) => text.includes(line)))) continue;
        this.usedPermissions.add(`${record.id}\0${entry.id}`);
        return true;
      }
    }
    return false;
  }
}

function refused(message: string): ClientRequestError {
  return new ClientRequestError(-32000, message);
}

/** The ways a tool call may spell the command: the full line, with a bare program name, or a shell's `-c` script. */
function commandLines(command: string, args: readonly string[]): string[] {
  const lines = [[command, ...args].join(' '), [path.basename(command), ...args].join(' ')];
  const script = args.indexOf('-c');
  if (script >= 0 && script === args.length - 2 && ['sh', 'bash', 'zsh', 'dash'].includes(path.basename(command))) lines.push(args[script + 1]!);
  return lines.map(squash).filter((line) => line.length > 0);
}

function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function stringsIn(value: unknown, depth = 0): string[] {
  if (typeof value === 'string') return [value];
  if (depth > 4 || value === null || typeof value !== 'object') return [];
  const values = Array.isArray(value) ? value : Object.values(value);
  const strings = values.flatMap((item) => stringsIn(item, depth + 1));
  // Codex sends `command` as an argv array.
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) strings.push(value.join(' '));
  return strings;
}
