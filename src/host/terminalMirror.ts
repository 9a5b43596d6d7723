// Mirrors the commands agents run (terminal/*) into read-only VS Code terminals the user can watch.
import * as vscode from 'vscode';
import type { TerminalManager } from '../acp/terminals';
import { mirroredTerminalName } from './uiText';
import { plainText, TerminalOutputFilter } from '../presentation';

export function mirrorTerminals(terminals: TerminalManager, agentName: string): vscode.Disposable {
  const open = new Map<string, { screen: PtyScreen; terminal: vscode.Terminal; output: TerminalOutputFilter }>();
  const subscriptions = [
    terminals.onDidCreate((info) => {
      // The header is ours: the agent's command, args and cwd in it must not carry escape sequences.
      const screen = new PtyScreen(`\x1b[2m${plainText(`${agentName} ran: ${[info.command, ...info.args].join(' ')}`)}\r\n(in ${plainText(info.cwd)})\x1b[0m\r\n`);
      const terminal = vscode.window.createTerminal({ name: mirroredTerminalName(agentName, info.command), pty: screen.pty, iconPath: new vscode.ThemeIcon('hubot'), isTransient: true });
      // The command's output is the agent's too: links, clipboard writes and titles in it are dropped.
      open.set(info.terminalId, { screen, terminal, output: new TerminalOutputFilter() });
    }),
    terminals.onDidOutput((event) => {
      const mirror = open.get(event.terminalId);
      if (!mirror) return;
      const text = mirror.output.write(event.data);
      if (text) mirror.screen.write(text);
    }),
    terminals.onDidExit((event) => {
      const status = event.exitStatus.signal ? `signal ${event.exitStatus.signal}` : `exit code ${event.exitStatus.exitCode}`;
      open.get(event.terminalId)?.screen.write(`\r\n\x1b[2m[process finished: ${status}]\x1b[0m\r\n`);
    }),
  ];
  return new vscode.Disposable(() => {
    for (const s of subscriptions) s.dispose();
    for (const { screen } of open.values()) screen.dispose();
  });
}

/** Characters held for a terminal VS Code has not opened yet; past this the oldest output goes first. */
const MAX_HELD_CHARS = 1_000_000;
const EARLIER_OUTPUT_CUT = '\x1b[2m[earlier output not shown]\x1b[0m\r\n';

/**
 * A pseudoterminal's writes before VS Code opens it are dropped, and a short command often finishes before that:
 * what comes first is held (bounded) and shown when the terminal opens.
 */
class PtyScreen {
  private readonly emitter = new vscode.EventEmitter<string>();
  /** Until VS Code opens the terminal: what it will show first, header included. */
  private held: string[] | undefined;
  private heldChars: number;
  readonly pty: vscode.Pseudoterminal;

  constructor(header: string) {
    this.held = [header];
    this.heldChars = header.length;
    this.pty = {
      onDidWrite: this.emitter.event,
      open: () => {
        const held = this.held ?? [];
        this.held = undefined;
        for (const text of held) this.emitter.fire(text);
      },
      close: () => undefined,
    };
  }

  write(text: string): void {
    if (!this.held) return this.emitter.fire(text);
    this.held.push(text);
    this.heldChars += text.length;
    if (this.heldChars <= MAX_HELD_CHARS) return;
    // Cut to half the bound, so the next cut is another half a bound away (linear over the whole output).
    const [header = ''] = this.held;
    const tail = this.held.slice(1).join('').slice(-MAX_HELD_CHARS / 2);
    this.held = [header, EARLIER_OUTPUT_CUT, tail];
    this.heldChars = header.length + EARLIER_OUTPUT_CUT.length + tail.length;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
