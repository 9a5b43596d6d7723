// "Start a session with which agent?": the default agent first. The list follows the settings while the picker
// is open (an agent configured meanwhile shows up without reopening it).
import type * as vscode from 'vscode';
import type { AgentConfig } from '../acp/agentProcess';

export interface AgentPickItem extends vscode.QuickPickItem {
  readonly agent: AgentConfig;
}

type AgentQuickPick = Pick<vscode.QuickPick<AgentPickItem>, 'items' | 'activeItems' | 'placeholder' | 'onDidAccept' | 'onDidHide' | 'show' | 'dispose'>;

/** What the picker needs from the window and the settings (vscode.window.createQuickPick and onDidChangeConfiguration in the host). */
export interface AgentPickerUi {
  createQuickPick(): AgentQuickPick;
  agents(): readonly AgentConfig[];
  defaultAgentId(): string;
  /** Fires when the settings the agent list comes from may have changed. */
  onDidChangeSettings(listener: () => void): vscode.Disposable;
}

function agentPickItems(agents: readonly AgentConfig[], defaultId: string): AgentPickItem[] {
  const ordered = [...agents].sort((a, b) => Number(b.id === defaultId) - Number(a.id === defaultId));
  return ordered.map((a) => ({ label: a.name, description: a.id === defaultId ? 'default' : a.id, detail: [a.command, ...(a.args ?? [])].join(' '), agent: a }));
}

/** The agent the user picks, or undefined when the picker is dismissed. */
export function pickAgent(ui: AgentPickerUi): Promise<AgentConfig | undefined> {
  const pick = ui.createQuickPick();
  pick.placeholder = 'Start a session with which agent?';
  const list = () => {
    const active = pick.activeItems[0]?.agent.id;
    pick.items = agentPickItems(ui.agents(), ui.defaultAgentId());
    // New items move the highlight to the first row; keep it on the agent the user was on.
    const again = pick.items.find((item) => item.agent.id === active);
    if (again) pick.activeItems = [again];
  };
  list();
  return new Promise((resolve) => {
    const subscriptions: vscode.Disposable[] = [];
    const finish = (agent: AgentConfig | undefined) => {
      for (const s of subscriptions) s.dispose();
      pick.dispose();
      resolve(agent);
    };
    subscriptions.push(
      pick.onDidAccept(() => finish(pick.activeItems[0]?.agent)),
      pick.onDidHide(() => finish(undefined)),
      ui.onDidChangeSettings(list),
    );
    pick.show();
  });
}
