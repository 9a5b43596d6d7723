// "Start a session with which agent?": the default agent first, each by its name with whether it can start here
// (its command found) and a shortened command line below. The list follows the settings while the picker is open
// (an agent configured meanwhile shows up without reopening it).
import * as path from 'node:path';
import type * as vscode from 'vscode';
import type { AgentConfig } from '../acp/agentProcess';
import type { InstallState } from '../host/agentInstallState';
import { inertUiText } from '../host/uiText';
import { t } from '../presentation';
import { quickPickAnswer } from './quickPickAnswer';

export interface AgentPickItem extends vscode.QuickPickItem {
  readonly agent: AgentConfig;
}

type AgentQuickPick = Pick<vscode.QuickPick<AgentPickItem>, 'items' | 'activeItems' | 'placeholder' | 'onDidAccept' | 'onDidHide' | 'show' | 'dispose'>;

/** What the picker needs from the window and the settings (vscode.window.createQuickPick and onDidChangeConfiguration in the host). */
export interface AgentPickerUi {
  createQuickPick(): AgentQuickPick;
  agents(): readonly AgentConfig[];
  defaultAgentId(): string;
  /** Whether the agent's command is there (host/agentInstallState in the extension). */
  installState(agent: AgentConfig): InstallState;
  /** Fires when the settings the agent list comes from may have changed. */
  onDidChangeSettings(listener: () => void): vscode.Disposable;
}

/** The command line without its folders, cut short: the detail line, never the label. */
export function shortCommandLine(agent: Pick<AgentConfig, 'command' | 'args' | 'builtIn'>, max = 80): string {
  if (agent.builtIn) return t('built in');
  return inertUiText([path.basename(agent.command), ...(agent.args ?? [])].join(' '), max);
}

function agentPickItems(ui: AgentPickerUi): AgentPickItem[] {
  const defaultId = ui.defaultAgentId();
  const ordered = [...ui.agents()].sort((a, b) => Number(b.id === defaultId) - Number(a.id === defaultId));
  return ordered.map((agent) => {
    const state = ui.installState(agent);
    const note = state.ready ? inertUiText(state.note, 80) : `$(warning) ${inertUiText(state.note, 80)}`;
    const description = agent.id === defaultId ? t('default · {0}', note) : note;
    return { label: inertUiText(agent.name, 80), description, detail: shortCommandLine(agent), agent };
  });
}

/** The agent the user picks, or undefined when the picker is dismissed. */
export function pickAgent(ui: AgentPickerUi): Promise<AgentConfig | undefined> {
  const pick = ui.createQuickPick();
  pick.placeholder = t('Start a session with which agent?');
  const list = () => {
    const active = pick.activeItems[0]?.agent.id;
    pick.items = agentPickItems(ui);
    // New items move the highlight to the first row; keep it on the agent the user was on.
    const again = pick.items.find((item) => item.agent.id === active);
    if (again) pick.activeItems = [again];
  };
  list();
  return quickPickAnswer(pick, (active, settle) => settle(active?.agent), [ui.onDidChangeSettings(list)]);
}
