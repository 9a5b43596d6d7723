// Mirrors the commands agents run (terminal/*) into read-only VS Code terminals the user can watch.
import * as vscode from 'vscode';
import type { TerminalManager } from '../acp/terminals';
import { mirroredTerminalName } from './uiText';
import { plainText, TerminalOutputFilter } from '../presentation';

export function mirrorTerminals(terminals: TerminalManager, agentName: string): vscode.Disposable {
  const open = new Map<string, { write: vscode.EventEmitter<string>; terminal: vscode.Terminal; output: TerminalOutputFilter }>();
  const subscriptions = [
    terminals.onDidCreate((info) => {
      const write = new vscode.EventEmitter<string>();
      const pty: vscode.Pseudoterminal = {
        onDidWrite: write.event,
        // The header is ours: the agent's command, args and cwd in it must not carry escape sequences.
        open: () => write.fire(`\x1b[2m${plainText(`${agentName} ran: ${[info.command, ...info.args].join(' ')}`)}\r\n(in ${plainText(info.cwd)})\x1b[0m\r\n`),
        close: () => undefined,
      };
      const terminal = vscode.window.createTerminal({ name: mirroredTerminalName(agentName, info.command), pty, iconPath: new vscode.ThemeIcon('hubot'), isTransient: true });
      // The command's output is the agent's too: links, clipboard writes and titles in it are dropped.
      open.set(info.terminalId, { write, terminal, output: new TerminalOutputFilter() });
    }),
    terminals.onDidOutput((event) => {
      const mirror = open.get(event.terminalId);
      if (!mirror) return;
      const text = mirror.output.write(event.data);
      if (text) mirror.write.fire(text);
    }),
    terminals.onDidExit((event) => {
      const status = event.exitStatus.signal ? `signal ${event.exitStatus.signal}` : `exit code ${event.exitStatus.exitCode}`;
      open.get(event.terminalId)?.write.fire(`\r\n\x1b[2m[process finished: ${status}]\x1b[0m\r\n`);
    }),
  ];
  return new vscode.Disposable(() => {
    for (const s of subscriptions) s.dispose();
    for (const { write } of open.values()) write.dispose();
  });
}
