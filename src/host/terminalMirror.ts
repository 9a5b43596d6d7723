// Mirrors the commands agents run (terminal/*) into read-only VS Code terminals the user can watch.
import * as vscode from 'vscode';
import type { TerminalManager } from '../acp/terminals';

export function mirrorTerminals(terminals: TerminalManager, agentName: string): vscode.Disposable {
  const open = new Map<string, { write: vscode.EventEmitter<string>; terminal: vscode.Terminal }>();
  const subscriptions = [
    terminals.onDidCreate((info) => {
      const write = new vscode.EventEmitter<string>();
      const pty: vscode.Pseudoterminal = {
        onDidWrite: write.event,
        open: () => write.fire(`\x1b[2m${agentName} ran: ${[info.command, ...info.args].join(' ')}\r\n(in ${info.cwd})\x1b[0m\r\n`),
        close: () => undefined,
      };
      const terminal = vscode.window.createTerminal({ name: `${agentName}: ${info.command}`, pty, iconPath: new vscode.ThemeIcon('hubot'), isTransient: true });
      open.set(info.terminalId, { write, terminal });
    }),
    terminals.onDidOutput((event) => open.get(event.terminalId)?.write.fire(event.data.replace(/\r?\n/g, '\r\n'))),
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
