// When an agent answers "authentication required" (-32000), let the user pick one of its authMethods:
// agent-driven methods go through `authenticate`; terminal methods run the agent's login in a VS Code terminal.
import * as vscode from 'vscode';
import { AgentRequestError } from '../acp/errors';
import { AcpErrorCodes } from '../protocol/acpErrorCodes';
import type { AgentRuntime } from '../host/subchatsService';
import { inertUiText } from '../host/uiText';

export function isAuthRequired(error: unknown): boolean {
  return error instanceof AgentRequestError && error.code === AcpErrorCodes.AuthRequired;
}

interface TerminalAuth {
  readonly args: string[];
  readonly env: Record<string, string>;
}

/** Terminal auth is `type: "terminal"` (final) or `_meta.type: "terminal"` (qwen-code). */
function terminalAuthOf(method: Record<string, unknown>): TerminalAuth | undefined {
  const meta = typeof method['_meta'] === 'object' && method['_meta'] !== null ? (method['_meta'] as Record<string, unknown>) : {};
  const source = method['type'] === 'terminal' ? method : meta['type'] === 'terminal' ? meta : undefined;
  if (!source) return undefined;
  const args = Array.isArray(source['args']) ? source['args'].filter((a): a is string => typeof a === 'string') : [];
  const env: Record<string, string> = {};
  if (typeof source['env'] === 'object' && source['env'] !== null) {
    for (const [k, v] of Object.entries(source['env'] as Record<string, unknown>)) if (typeof v === 'string') env[k] = v;
  }
  return { args, env };
}

/** Returns true when the user authenticated (so the caller may retry), false when they gave up. */
export async function authenticateInteractively(runtime: AgentRuntime): Promise<boolean> {
  const connection = runtime.connection;
  const methods = connection?.authMethods ?? [];
  if (!connection || methods.length === 0) {
    void vscode.window.showErrorMessage(vscode.l10n.t("{0} requires authentication but offers no method. Sign in with the agent's own CLI, then restart it.", runtime.agent.name));
    return false;
  }
  const picked = await vscode.window.showQuickPick(
    methods.map((m) => {
      const raw = m as unknown as Record<string, unknown>;
      const terminal = terminalAuthOf(raw);
      return { label: inertUiText(String(raw['name'] ?? raw['id'])), description: terminal ? vscode.l10n.t('runs in a terminal') : undefined, detail: typeof raw['description'] === 'string' ? inertUiText(raw['description'], 500) : undefined, raw, terminal };
    }),
    { placeHolder: vscode.l10n.t('{0} needs you to sign in. How?', runtime.agent.name), ignoreFocusOut: true },
  );
  if (!picked) return false;
  if (picked.terminal) {
    const terminal = vscode.window.createTerminal({
      name: vscode.l10n.t('{0}: sign in', runtime.agent.name),
      shellPath: runtime.agent.command,
      shellArgs: [...(runtime.agent.args ?? []), ...picked.terminal.args],
      env: { ...(runtime.agent.env ?? {}), ...picked.terminal.env },
      cwd: runtime.cwd || undefined,
    });
    terminal.show();
    const proceed = vscode.l10n.t('Continue');
    const done = await vscode.window.showInformationMessage(vscode.l10n.t('Finish signing in to {0} in the terminal, then continue.', runtime.agent.name), { modal: true }, proceed);
    return done === proceed;
  }
  await connection.authenticate(String(picked.raw['id']));
  return true;
}
