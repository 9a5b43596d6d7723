// Subchats: Check Agent: which agent (argument, agent row or picker), the check itself, and showing the result.
import * as vscode from 'vscode';
import { pickerFocusOptions } from './pickerFocus';
import type { AgentConfig } from '../acp/agentProcess';
import { checkAgent, type AgentCheckResult } from '../host/agentCheck';
import { commandLine } from '../host/agentCheckReport';
import type { SubchatsService } from '../host/subchatsService';
import { refusedAsUntrusted } from './workspaceTrust';

export interface CheckAgentContext {
  readonly service: SubchatsService;
  readonly agents: () => AgentConfig[];
  readonly workspaceFolder: () => string | undefined;
  /** Where the details go. */
  readonly output: vscode.OutputChannel;
}

/** The agent an argument names: its id, or an agent row of the tree (`{ connectionId }`). */
function namedAgent(ctx: CheckAgentContext, arg: unknown): AgentConfig | string | undefined {
  const agents = ctx.agents();
  if (typeof arg === 'string') return agents.find((agent) => agent.id === arg) ?? vscode.l10n.t('no agent with the id "{0}" is configured', arg);
  if (arg && typeof arg === 'object' && 'connectionId' in arg) {
    const runtime = ctx.service.get(String((arg as { connectionId: unknown }).connectionId));
    if (!runtime) return undefined;
    return agents.find((agent) => agent.id === runtime.agent.id) ?? vscode.l10n.t('the agent "{0}" is no longer configured', runtime.agent.name);
  }
  return undefined;
}

async function pickAgent(ctx: CheckAgentContext): Promise<AgentConfig | undefined> {
  const picked = await vscode.window.showQuickPick(
    ctx.agents().map((agent) => ({ label: agent.name, description: agent.id, detail: commandLine(agent), agent })),
    { placeHolder: vscode.l10n.t('Check which agent? (starts it, asks initialize, stops it)'), ...pickerFocusOptions() },
  );
  return picked?.agent;
}

/** Returns the result (for tests and the API); shows a notification and writes the details to the output. */
export async function checkAgentCommand(ctx: CheckAgentContext, arg?: unknown): Promise<AgentCheckResult | undefined> {
  const named = namedAgent(ctx, arg);
  if (typeof named === 'string') {
    void vscode.window.showWarningMessage(vscode.l10n.t('Subchats: cannot check: {0}.', named));
    return undefined;
  }
  const agent = named ?? (await pickAgent(ctx));
  if (!agent) return undefined;
  if (refusedAsUntrusted()) return undefined;
  // Where a session of this agent would run it: its own folder (presets), else the workspace folder.
  const cwd = agent.processCwd ?? ctx.workspaceFolder();
  if (!cwd) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Subchats: open a folder first; this agent runs in the workspace folder.'));
    return undefined;
  }
  const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking {0}…', agent.name) }, () =>
    // The version(s) a session start would offer (setting subchats.protocolVersion), read where the service reads it.
    checkAgent(agent, { cwd, timeoutMs: ctx.service.initializeTimeoutMs, protocol: ctx.service.protocolSetting, log: (text) => ctx.output.appendLine(text) }),
  );
  for (const line of result.report.lines) ctx.output.appendLine(line);
  const details = vscode.l10n.t('Show Details');
  const message = vscode.l10n.t('Subchats: {0}', result.report.summary);
  const shown = result.ok ? vscode.window.showInformationMessage(message, details) : vscode.window.showErrorMessage(message, details);
  void shown.then((choice) => choice === details && ctx.output.show(true));
  return result;
}
