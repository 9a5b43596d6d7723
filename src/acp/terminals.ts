// Runs the commands agents ask for through `terminal/*`: shell-less child processes confined to the
// workspace, with bounded output. Events let the editor mirror each terminal (e.g. into a Pseudoterminal).
import { spawn, type ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { Emitter, ErrorCodes, type Event } from 'vscode-jsonrpc/node';
import { AcpErrorCodes } from '../protocol/acpErrorCodes';
import { realFolders, VerifiedDirectory } from './confinedFs';
import { ClientRequestError } from './errors';
import { GROUP_LEADER, killProcessGroup, trackProcessGroup } from './processGroups';
import type { TerminalRequestFacts } from './terminalGate';
import { completeUtf8Length, utf8TailWithin } from './utf8';
import { resolveWorkspacePath, WorkspacePathError } from './workspacePaths';

export interface TerminalCreateParams {
  readonly sessionId: string;
  readonly command: string;
  readonly args?: readonly string[] | null;
  readonly env?: readonly { readonly name: string; readonly value: string }[] | null;
  readonly cwd?: string | null;
  readonly outputByteLimit?: number | null;
}

export interface TerminalExitStatus {
  readonly exitCode: number | null;
  readonly signal: string | null;
}

export interface TerminalOutputSnapshot {
  readonly output: string;
  readonly truncated: boolean;
  readonly exitStatus: TerminalExitStatus | null;
}

export interface TerminalInfo {
  readonly terminalId: string;
  readonly sessionId: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
}

export interface TerminalOutputEvent {
  readonly terminalId: string;
  readonly sessionId: string;
  /** Decoded text as it arrived (stdout and stderr interleaved); not limited by outputByteLimit. */
  readonly data: string;
}

export interface TerminalExitEvent {
  readonly terminalId: string;
  readonly sessionId: string;
  readonly exitStatus: TerminalExitStatus;
}

export interface TerminalManagerOptions {
  readonly workspaceFolders: () => readonly string[];
  /** cwd for a terminal whose request has none (e.g. the session's cwd); defaults to the first workspace folder. */
  readonly defaultCwd?: (sessionId: string) => string | undefined;
  /** Used when the agent gives no outputByteLimit. */
  readonly defaultOutputByteLimit?: number;
  readonly baseEnv?: NodeJS.ProcessEnv;
  /** How long a killed command gets to exit after SIGTERM before SIGKILL. */
  readonly killGraceMs?: number;
  /** Decides whether the command may run (throws a ClientRequestError to refuse); default: it may. */
  readonly authorize?: (request: TerminalRequestFacts) => Promise<void>;
}

const DEFAULT_OUTPUT_BYTE_LIMIT = 1024 * 1024;
/** Whatever an agent asks for, the client keeps at most this much output per terminal. */
export const MAX_OUTPUT_BYTE_LIMIT = 4 * 1024 * 1024;

class ManagedTerminal {
  private readonly chunks: Buffer[] = [];
  private storedBytes = 0;
  private droppedBytes = false;
  exitStatus: TerminalExitStatus | null = null;
  readonly exited: Promise<TerminalExitStatus>;
  private markExited!: (status: TerminalExitStatus) => void;

  constructor(
    readonly info: TerminalInfo,
    readonly child: ChildProcess,
    private readonly outputByteLimit: number,
    /** Drops the process group from the exit sweep. */
    readonly untrack: () => void,
  ) {
    this.exited = new Promise((resolve) => (this.markExited = resolve));
  }

  get running(): boolean {
    return this.exitStatus === null;
  }

  append(bytes: Buffer): void {
    this.chunks.push(bytes);
    this.storedBytes += bytes.length;
    // Drop whole chunks that lie entirely before the last `outputByteLimit` bytes.
    while (this.chunks.length > 1 && this.storedBytes - this.chunks[0]!.length >= this.outputByteLimit) {
      this.storedBytes -= this.chunks.shift()!.length;
      this.droppedBytes = true;
    }
  }

  snapshot(): TerminalOutputSnapshot {
    const all = Buffer.concat(this.chunks);
    const tail = utf8TailWithin(all, this.outputByteLimit);
    // While running, a character may be split across reads; leave its first bytes for the next snapshot.
    const visible = this.running ? tail.subarray(0, completeUtf8Length(tail)) : tail;
    return {
      output: visible.toString('utf8'),
      truncated: this.droppedBytes || tail.length < all.length,
      exitStatus: this.exitStatus,
    };
  }

  finish(status: TerminalExitStatus): void {
    if (this.exitStatus) return;
    this.exitStatus = status;
    this.markExited(status);
  }
}

export class TerminalManager {
  private readonly terminals = new Map<string, ManagedTerminal>();
  private nextId = 1;
  private readonly createdEmitter = new Emitter<TerminalInfo>();
  private readonly outputEmitter = new Emitter<TerminalOutputEvent>();
  private readonly exitEmitter = new Emitter<TerminalExitEvent>();
  private readonly releasedEmitter = new Emitter<{ readonly terminalId: string }>();

  readonly onDidCreate: Event<TerminalInfo> = this.createdEmitter.event;
  readonly onDidOutput: Event<TerminalOutputEvent> = this.outputEmitter.event;
  readonly onDidExit: Event<TerminalExitEvent> = this.exitEmitter.event;
  readonly onDidRelease: Event<{ readonly terminalId: string }> = this.releasedEmitter.event;

  private closed = false;

  constructor(private readonly options: TerminalManagerOptions) {}

  async create(params: TerminalCreateParams): Promise<string> {
    if (typeof params.command !== 'string' || !params.command.trim()) {
      throw new ClientRequestError(ErrorCodes.InvalidParams, 'terminal/create needs a non-empty command.');
    }
    const args = (params.args ?? []).map(String);
    const cwd = await this.resolveCwd(params.sessionId, params.cwd);
    const overrides = (params.env ?? []).filter((v) => v && typeof v.name === 'string').map((v) => ({ name: v.name, value: String(v.value ?? '') }));
    const env: NodeJS.ProcessEnv = { ...(this.options.baseEnv ?? process.env) };
    for (const variable of overrides) env[variable.name] = variable.value;
    const limit = this.outputLimit(params.outputByteLimit);
    await this.options.authorize?.({ sessionId: params.sessionId, command: params.command, args, cwd, env: overrides });

    // The checks awaited: the connection may have shut down meanwhile, and nobody would stop the command.
    if (this.closed) throw new ClientRequestError(ErrorCodes.InternalError, 'The connection is shutting down; no new terminals.');
    // Spawn in the directory that was verified and is held open, not in whatever the path names by now.
    const directory = await this.verifiedCwd(cwd);
    let child: ChildProcess;
    try {
      child = spawn(params.command, args, {
        cwd: directory.entry(),
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        shell: false,
        windowsHide: true,
        // Own process group, so kill reaches whatever the command started.
        detached: GROUP_LEADER,
      });
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', (error) => reject(new ClientRequestError(ErrorCodes.InternalError, `Could not run "${params.command}": ${error.message}`)));
      });
    } finally {
      // Not awaited: the command may already be done, and its 'close' must find the listeners below.
      void directory.close().catch(() => undefined);
    }
    const untrack = trackProcessGroup(child.pid);

    if (this.closed) {
      child.kill('SIGKILL');
      throw new ClientRequestError(ErrorCodes.InternalError, 'The connection is shutting down; no new terminals.');
    }
    const terminalId = `terminal-${this.nextId++}`;
    const info: TerminalInfo = { terminalId, sessionId: params.sessionId, command: params.command, args, cwd };
    const terminal = new ManagedTerminal(info, child, limit, untrack);
    this.terminals.set(terminalId, terminal);
    this.pipeOutput(terminal);
    child.on('error', () => undefined); // e.g. a failed kill; the exit event still settles the terminal
    child.once('close', (code, signal) => {
      const exitStatus = { exitCode: code, signal };
      terminal.finish(exitStatus);
      this.exitEmitter.fire({ terminalId, sessionId: info.sessionId, exitStatus });
    });
    this.createdEmitter.fire(info);
    return terminalId;
  }

  output(terminalId: string): TerminalOutputSnapshot {
    return this.get(terminalId).snapshot();
  }

  waitForExit(terminalId: string): Promise<TerminalExitStatus> {
    return this.get(terminalId).exited;
  }

  /** Stops the command; the terminal stays available for output until released. */
  kill(terminalId: string): void {
    this.stop(this.get(terminalId));
  }

  /** Stops the command if needed and forgets the terminal. */
  release(terminalId: string): void {
    const terminal = this.get(terminalId);
    if (terminal.running) this.stop(terminal);
    else killProcessGroup(terminal.child, 'SIGKILL'); // whatever the command left running in its group
    void terminal.exited.then(terminal.untrack);
    this.terminals.delete(terminalId);
    this.releasedEmitter.fire({ terminalId });
  }

  has(terminalId: string): boolean {
    return this.terminals.has(terminalId);
  }

  list(): TerminalInfo[] {
    return [...this.terminals.values()].map((terminal) => terminal.info);
  }

  /** Kills and forgets every terminal (the agent went away). */
  /** The connection is closing: stop every command and refuse new ones. */
  releaseAll(): void {
    this.closed = true;
    for (const terminalId of [...this.terminals.keys()]) this.release(terminalId);
  }

  private get(terminalId: unknown): ManagedTerminal {
    const terminal = typeof terminalId === 'string' ? this.terminals.get(terminalId) : undefined;
    if (!terminal) throw new ClientRequestError(AcpErrorCodes.ResourceNotFound, `Unknown terminal ${JSON.stringify(terminalId)} (never created or already released).`);
    return terminal;
  }

  private outputLimit(requested: number | null | undefined): number {
    if (typeof requested === 'number' && Number.isFinite(requested) && requested >= 0) return Math.min(Math.floor(requested), MAX_OUTPUT_BYTE_LIMIT);
    return this.options.defaultOutputByteLimit ?? DEFAULT_OUTPUT_BYTE_LIMIT;
  }

  private async resolveCwd(sessionId: string, requested: string | null | undefined): Promise<string> {
    const folders = this.options.workspaceFolders();
    const cwd = requested ?? this.options.defaultCwd?.(sessionId) ?? folders[0];
    if (!cwd) throw new ClientRequestError(ErrorCodes.InvalidParams, 'terminal/create has no cwd and no workspace folder is open.');
    let resolved: string;
    try {
      resolved = (await resolveWorkspacePath(cwd, folders, { allowFolderItself: true })).path;
    } catch (error) {
      if (error instanceof WorkspacePathError) throw new ClientRequestError(ErrorCodes.InvalidParams, `Terminal cwd rejected: ${error.message}`);
      throw error;
    }
    await (await this.verifiedCwd(resolved)).close();
    return resolved;
  }

  private async verifiedCwd(cwd: string): Promise<VerifiedDirectory> {
    try {
      return await VerifiedDirectory.open(cwd, await realFolders(this.options.workspaceFolders()), cwd);
    } catch (error) {
      if (error instanceof WorkspacePathError) throw new ClientRequestError(ErrorCodes.InvalidParams, `Terminal cwd rejected: ${error.message}`);
      throw new ClientRequestError(ErrorCodes.InvalidParams, `Terminal cwd "${cwd}" is not an existing directory.`);
    }
  }

  private pipeOutput(terminal: ManagedTerminal): void {
    const { terminalId, sessionId } = terminal.info;
    for (const stream of [terminal.child.stdout, terminal.child.stderr]) {
      if (!stream) continue;
      const decoder = new StringDecoder('utf8');
      stream.on('data', (chunk: Buffer) => {
        terminal.append(chunk);
        const data = decoder.write(chunk);
        if (data) this.outputEmitter.fire({ terminalId, sessionId, data });
      });
      stream.on('end', () => {
        const rest = decoder.end();
        if (rest) this.outputEmitter.fire({ terminalId, sessionId, data: rest });
      });
    }
  }

  private stop(terminal: ManagedTerminal): void {
    if (!terminal.running) return;
    const sendSignal = (signal: NodeJS.Signals) => killProcessGroup(terminal.child, signal);
    sendSignal('SIGTERM');
    const escalation = setTimeout(() => {
      if (terminal.running) sendSignal('SIGKILL');
    }, this.options.killGraceMs ?? 3000);
    escalation.unref();
    void terminal.exited.then(() => clearTimeout(escalation));
  }
}
