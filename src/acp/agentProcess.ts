// The agent's operating-system process: spawn, stderr tail, exit, stop. Knows nothing about ACP.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { Emitter, type Event } from 'vscode-jsonrpc/node';
import { AgentStartError, describeExit, type AgentExit } from './errors';
import { GROUP_LEADER, killProcessGroup, trackProcessGroup } from './processGroups';
import { TailBuffer } from './tailBuffer';

/** An agent as configured by the user. */
export interface AgentConfig {
  readonly id: string;
  readonly name: string;
  readonly command: string;
  readonly args?: readonly string[];
  /** Added to (and overriding) the inherited environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** Subchats' own demo agent: its one terminal command is fixed, so `ask` does not ask for it. */
  readonly builtIn?: boolean;
  /** Where the process runs when not in the session's folder (presets: a neutral folder). */
  readonly processCwd?: string;
  /**
   * Under `subchats.protocolVersion: auto`, offer ACP v1 first, for this reason (an agent whose v1 does what its v2
   * does not, e.g. Claude's steering). `2` still speaks v2.
   */
  readonly prefersV1?: string;
  /** The ACP registry agent it was added from (Subchats: Add Agent…). */
  readonly registryId?: string;
}

const EXIT_DRAIN_MS = 500;

export interface AgentProcessOptions {
  readonly cwd: string;
  readonly baseEnv?: NodeJS.ProcessEnv;
  readonly stderrTailChars?: number;
}

export class AgentProcess {
  private readonly stderrBuffer: TailBuffer;
  private readonly stderrEmitter = new Emitter<string>();
  private readonly exitEmitter = new Emitter<AgentExit>();
  private exitInfo: AgentExit | undefined;
  private failedToStart: AgentStartError | undefined;
  private killTimer: NodeJS.Timeout | undefined;
  private readonly untrackGroup: () => void;

  /** Decoded stderr text as it arrives (for an output channel). */
  readonly onStderr: Event<string> = this.stderrEmitter.event;
  /** Fires once, when the process is gone (or could not be started). */
  readonly onDidExit: Event<AgentExit> = this.exitEmitter.event;

  private constructor(
    readonly config: AgentConfig,
    private readonly child: ChildProcessWithoutNullStreams,
    stderrTailChars: number,
  ) {
    this.stderrBuffer = new TailBuffer(stderrTailChars);
    this.untrackGroup = trackProcessGroup(child.pid);
    const decoder = new StringDecoder('utf8');
    child.stderr.on('data', (chunk: Buffer) => {
      const text = decoder.write(chunk);
      this.stderrBuffer.append(text);
      if (text) this.stderrEmitter.fire(text);
    });
    // An EPIPE on a dead agent's pipes must never become an uncaught 'error' event.
    for (const stream of [child.stdin, child.stdout, child.stderr]) stream.on('error', () => undefined);
    child.on('error', (error: Error & { code?: string }) => {
      // Before 'spawn' this means it never ran; later errors (e.g. a failed kill) change nothing.
      if (child.pid === undefined && !this.exitInfo) {
        this.failedToStart = new AgentStartError(config.name, config.command, error);
        this.finish({ code: null, signal: null, stderrTail: this.stderrTail, description: this.failedToStart.message });
      }
    });
    const exited = (code: number | null, signal: NodeJS.Signals | null) =>
      this.finish({ code, signal, stderrTail: this.stderrTail, description: describeExit(config.name, { code, signal }) });
    child.on('close', exited);
    // 'close' waits for every stdio stream; something the agent started may hold its stderr open for
    // ever. After the process itself exits, give the pipes a moment to drain, then call it gone.
    child.on('exit', (code, signal) => {
      setTimeout(() => exited(code, signal), EXIT_DRAIN_MS);
    });
  }

  static spawn(config: AgentConfig, options: AgentProcessOptions): AgentProcess {
    const child = spawn(config.command, [...(config.args ?? [])], {
      cwd: options.cwd,
      env: { ...(options.baseEnv ?? process.env), ...(config.env ?? {}) },
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true,
      // Group leader: stopping the agent reaches what it started, also an agent that ignores stdin EOF.
      detached: GROUP_LEADER,
    });
    return new AgentProcess(config, child, options.stderrTailChars ?? 16 * 1024);
  }

  get stdin(): Writable {
    return this.child.stdin;
  }

  get stdout(): Readable {
    return this.child.stdout;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get stderrTail(): string {
    return this.stderrBuffer.toString();
  }

  get exit(): AgentExit | undefined {
    return this.exitInfo;
  }

  get startError(): AgentStartError | undefined {
    return this.failedToStart;
  }

  get running(): boolean {
    return this.exitInfo === undefined;
  }

  /** Closes stdin and sends SIGTERM; SIGKILL follows if the process is still there after `graceMs`. */
  stop(graceMs = 2000): void {
    if (!this.running) return;
    if (!this.child.stdin.destroyed) this.child.stdin.end();
    killProcessGroup(this.child, 'SIGTERM');
    this.killTimer ??= setTimeout(() => {
      if (this.running) killProcessGroup(this.child, 'SIGKILL');
    }, graceMs);
    this.killTimer.unref();
  }

  private finish(exit: AgentExit): void {
    if (this.exitInfo) return;
    this.exitInfo = exit;
    if (this.killTimer) clearTimeout(this.killTimer);
    // The agent is gone; what it left in its group (tools, servers) has nobody to talk to.
    if (this.child.pid !== undefined) killProcessGroup(this.child, 'SIGKILL');
    this.untrackGroup();
    this.exitEmitter.fire(exit);
  }
}
