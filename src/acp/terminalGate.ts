// Decides whether a `terminal/create` may run (setting subchats.terminals: ask, allow or deny).
//
// `ask` does not ask twice for the same thing: a command the user already allowed through the agent's own
// `session/request_permission` runs without a second question. An allow covers exactly what the prompt
// showed when the user answered: the `execute` kind and the command the tool call's raw input held when the
// agent asked (kept on the permission entry; later changes to the call's title, raw input or kind count for
// nothing), for one terminal whose command line is that command, while that call is still open. Equal means
// equal: the same argv, the same simple line split at its spaces, or that line run by a shell's `-c`; never a
// substring. terminal/create carries no toolCallId, so the newest such answer of the session is spent.
// "Allow for This Session" covers the same program with the same arguments, not every later use of `sh`.
// Anything else is asked about, naming the agent, session, command and cwd.
//
// Environment overrides that change what runs (PATH, LD_*, NODE_OPTIONS, …) are never covered by an earlier
// answer or by `allow`: with `ask` they are shown in the question (allow once only), otherwise refused.
import { isToolCallOpen } from '../store/stateRules';
import type { SessionStore } from '../store/sessionStore';
import { isPlainWord } from '../presentation';
import type { ShownCommand } from '../protocol/transcript';
import type { AccessDecision, TerminalQuestion } from './clientHost';
import { ErrorCodes } from 'vscode-jsonrpc/node';
import { ClientRequestError } from './errors';

export type TerminalPolicy = 'ask' | 'allow' | 'deny';

const RISKY_ENV =
  /^(PATH|PATHEXT|LD_\w*|DYLD_\w*|NODE_OPTIONS|NODE_PATH|BASH_ENV|ENV|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|IFS|ZDOTDIR|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|PERL5LIB|PERL5OPT|RUBYLIB|RUBYOPT|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|CLASSPATH|GIT_SSH|GIT_SSH_COMMAND|GIT_EXEC_PATH|GIT_ASKPASS|SSH_ASKPASS|GIT_CONFIG\w*|HOME|TMPDIR|COMSPEC)$/i;

function riskyEnvOverrides(env: readonly { readonly name: string; readonly value: string }[]): { name: string; value: string }[] {
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
  /** Per session, the command lines (program and arguments) the user allowed for the rest of the session. */
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
      if (this.granted.get(request.sessionId)?.has(grantKey(request))) return;
      if (this.consumeMatchingPermission(request)) return;
    }
    const decision = this.options.ask
      ? await this.options.ask({ agentName: this.options.agentName, sessionId: request.sessionId, sessionLabel: this.options.store.getSession(request.sessionId)?.label, command: request.command, args: request.args, cwd: request.cwd, riskyEnv })
      : 'deny';
    if (decision === 'deny') throw refused(`The user did not allow running "${commandLine}".`);
    if (decision === 'session' && !riskyEnv.length) {
      const commands = this.granted.get(request.sessionId) ?? new Set<string>();
      commands.add(grantKey(request));
      this.granted.set(request.sessionId, commands);
    }
  }

  private consumeMatchingPermission(request: TerminalRequestFacts): boolean {
    const session = this.options.store.getSession(request.sessionId);
    if (!session) return false;
    // Permissions of a virtual child (Claude, qwen) live on the child record but share the wire session.
    const records = [session, ...session.childIds.map((id) => this.options.store.getSession(id)).filter((child) => child !== undefined)];
    for (const record of records) {
      for (let index = record.entries.length - 1; index >= 0; index--) {
        const entry = record.entries[index]!;
        if (entry.kind !== 'permission' || entry.outcome !== 'selected' || !entry.toolCallId || this.usedPermissions.has(`${record.id}\0${entry.id}`)) continue;
        const option = entry.options.find((o) => o.optionId === entry.optionId);
        if (!option?.kind.startsWith('allow')) continue;
        if (entry.toolKind !== 'execute' || entry.command === undefined || !runsExactly(entry.command, request)) continue;
        const call = record.toolCalls[entry.toolCallId];
        if (!call || !isToolCallOpen(call.status)) continue;
        this.usedPermissions.add(`${record.id}\0${entry.id}`);
        return true;
      }
    }
    return false;
  }
}

/**
 * Answered the way a refused file read outside the workspace is (invalid params, reason `not-allowed`), so an
 * agent sees one kind of refusal. Never -32000: ACP reads that as "authentication required".
 */
function refused(message: string): ClientRequestError {
  return new ClientRequestError(ErrorCodes.InvalidParams, message, { reason: 'not-allowed' });
}

function grantKey(request: TerminalRequestFacts): string {
  return JSON.stringify([request.command, ...request.args]);
}

const SHELLS = ['sh', 'bash', 'zsh', 'dash'];
const SHELL_SCRIPT_FLAGS = ['-c', '-lc'];

/** Whether terminal/create runs exactly the command the user was shown. */
function runsExactly(shown: ShownCommand, request: TerminalRequestFacts): boolean {
  const argv = [request.command, ...request.args];
  if (typeof shown !== 'string') return sameArgv(shown, argv);
  // A shell line, run by a shell as its `-c` script, byte for byte.
  const [flag, script, ...rest] = request.args;
  if (SHELLS.some((shell) => sameProgram(shell, request.command)) && flag !== undefined && SHELL_SCRIPT_FLAGS.includes(flag) && script === shown && rest.length === 0) return true;
  // A simple line (plain words only) means the same argv without a shell.
  const words = shown.trim().split(/\s+/);
  return words.every(isPlainWord) && sameArgv(words, argv);
}

function sameArgv(shown: readonly string[], run: readonly string[]): boolean {
  return shown.length === run.length && shown.length > 0 && sameProgram(shown[0]!, run[0]!) && shown.every((part, index) => index === 0 || part === run[index]);
}

/** The same program: the same path, or a bare name shown and that name run from /bin or /usr/bin (not one the agent placed). */
function sameProgram(shown: string, run: string): boolean {
  return shown === run || (!shown.includes('/') && (run === `/bin/${shown}` || run === `/usr/bin/${shown}`));
}
