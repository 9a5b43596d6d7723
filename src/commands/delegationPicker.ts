// For agents that advertise the draft subagent catalog: let the user choose how a prompt may be delegated.
// Only the choices the agent's capabilities allow are offered; the connection validates again before sending.
import * as vscode from 'vscode';
import { pickerFocusOptions } from './pickerFocus';
import type { PromptDelegation } from '../acp/delegation';
import type { AgentRuntime } from '../host/subchatsService';
import { inertUiText } from '../host/uiText';

/** The protocol's own words for a choice, as its description. */
function policy(fields: string): string {
  return vscode.l10n.t('policy: {0}', fields);
}

/** `undefined` = the user dismissed the picker; `null` = send without a delegation field. */
export async function pickDelegation(runtime: AgentRuntime, sessionId: string): Promise<PromptDelegation | null | undefined> {
  const connection = runtime.connection;
  const support = connection?.delegationSupport;
  if (!connection || !support?.promptDelegation) return null;
  type Item = vscode.QuickPickItem & { delegation: PromptDelegation | null };
  const items: Item[] = [
    { label: vscode.l10n.t('Let the agent decide'), description: policy('auto'), delegation: { policy: 'auto' } },
    { label: vscode.l10n.t('Do not delegate'), description: policy('disable'), delegation: { policy: 'disable' } },
  ];
  for (const subagent of connection.availableSubagents(sessionId)) {
    const title = inertUiText(subagent.title);
    const detail = subagent.description ? inertUiText(subagent.description, 500) : undefined;
    items.push({ label: vscode.l10n.t('Prefer {0}', title), description: policy('prefer'), detail, delegation: { policy: 'prefer', subagentId: subagent.id } });
    items.push({ label: vscode.l10n.t('Require {0}', title), description: policy('require'), detail, delegation: { policy: 'require', subagentId: subagent.id } });
    if (support.background) {
      items.push({ label: vscode.l10n.t('Require {0} in the background', title), description: policy('require, runMode: background'), delegation: { policy: 'require', subagentId: subagent.id, runMode: 'background' } });
    }
  }
  const picked = await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('{0} can delegate this prompt to a subagent', runtime.agent.name), ...pickerFocusOptions() });
  return picked ? picked.delegation : undefined;
}
