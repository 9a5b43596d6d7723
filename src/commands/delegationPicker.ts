// For agents that advertise the draft subagent catalog: let the user choose how a prompt may be delegated.
// Only the choices the agent's capabilities allow are offered; the connection validates again before sending.
import * as vscode from 'vscode';
import type { PromptDelegation } from '../acp/delegation';
import type { AgentRuntime } from '../host/subchatsService';
import { inertUiText } from '../host/uiText';

/** `undefined` = the user dismissed the picker; `null` = send without a delegation field. */
export async function pickDelegation(runtime: AgentRuntime, sessionId: string): Promise<PromptDelegation | null | undefined> {
  const connection = runtime.connection;
  const support = connection?.delegationSupport;
  if (!connection || !support?.promptDelegation) return null;
  type Item = vscode.QuickPickItem & { delegation: PromptDelegation | null };
  const items: Item[] = [
    { label: 'Let the agent decide', description: 'policy: auto', delegation: { policy: 'auto' } },
    { label: 'Do not delegate', description: 'policy: disable', delegation: { policy: 'disable' } },
  ];
  for (const subagent of connection.availableSubagents(sessionId)) {
    const title = inertUiText(subagent.title);
    const detail = subagent.description ? inertUiText(subagent.description, 500) : undefined;
    items.push({ label: `Prefer ${title}`, description: 'policy: prefer', detail, delegation: { policy: 'prefer', subagentId: subagent.id } });
    items.push({ label: `Require ${title}`, description: 'policy: require', detail, delegation: { policy: 'require', subagentId: subagent.id } });
    if (support.background) {
      items.push({ label: `Require ${title} in the background`, description: 'policy: require, runMode: background', delegation: { policy: 'require', subagentId: subagent.id, runMode: 'background' } });
    }
  }
  const picked = await vscode.window.showQuickPick(items, { placeHolder: `${runtime.agent.name} can delegate this prompt to a subagent` });
  return picked ? picked.delegation : undefined;
}
