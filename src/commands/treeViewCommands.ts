// The session tree's sort and filter commands (view title bar and palette). What they choose is ruled in
// src/views/treeFilter.ts; the tree keeps the choice per workspace.
import * as vscode from 'vscode';
import { pickerFocusOptions } from './pickerFocus';
import { inertUiText } from '../host/uiText';
import type { TreeShow, TreeSort, TreeViewOptions } from '../views/treeFilter';

export interface ArrangedTree {
  readonly options: TreeViewOptions;
  setOptions(options: TreeViewOptions): Promise<void>;
  agentNames(): string[];
}

// Functions, not constants: the words are translated when the picker opens.
const sortChoices = (): readonly { readonly sort: TreeSort; readonly label: string; readonly detail: string }[] => [
  { sort: 'appearance', label: vscode.l10n.t('Order of Appearance'), detail: vscode.l10n.t('Connections and sessions in the order they started') },
  { sort: 'state', label: vscode.l10n.t('State'), detail: vscode.l10n.t('Sessions that need you first, then the ones at work, then the rest') },
  { sort: 'cost', label: vscode.l10n.t('Cost'), detail: vscode.l10n.t('The highest reported cost first (tokens used where no cost is reported)') },
  { sort: 'agent', label: vscode.l10n.t('Agent'), detail: vscode.l10n.t('Connections by agent name') },
];

const showChoices = (): readonly { readonly show: TreeShow; readonly label: string; readonly detail: string }[] => [
  { show: 'everything', label: vscode.l10n.t('Everything'), detail: vscode.l10n.t('Every session of every agent') },
  { show: 'needsMe', label: vscode.l10n.t('Needs Me'), detail: vscode.l10n.t('Sessions waiting for you, and the sessions above them') },
  { show: 'working', label: vscode.l10n.t('Working'), detail: vscode.l10n.t('Sessions at work or waiting for you, and the sessions above them') },
];

const mark = (current: boolean): string => (current ? '$(check)' : '$(blank)');

interface Choice<T> extends vscode.QuickPickItem {
  readonly value?: T;
}

/** Sort Sessions By…: the current sort is checked. */
export async function sortSessions(tree: ArrangedTree): Promise<void> {
  const items: Choice<TreeSort>[] = sortChoices().map((c) => ({ label: `${mark(tree.options.sort === c.sort)} ${c.label}`, detail: c.detail, value: c.sort }));
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Sort Sessions By'), placeHolder: vscode.l10n.t('Among siblings: connections, the roots of a connection, the subagents of a session'), ...pickerFocusOptions() });
  if (picked?.value) await tree.setOptions({ ...tree.options, sort: picked.value });
}

/** Filter Sessions…: by state (Everything clears every filter), or by agent in a second pick. */
export async function filterSessions(tree: ArrangedTree): Promise<void> {
  const { options } = tree;
  const agents = options.agents.length > 0 ? options.agents.map((a) => inertUiText(a)).join(', ') : undefined;
  const items: Choice<TreeShow | 'agents'>[] = [
    ...showChoices().map((c) => ({
      label: `${mark(c.show === 'everything' ? options.show === 'everything' && !agents : options.show === c.show)} ${c.label}`,
      detail: c.detail,
      value: c.show,
    })),
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    { label: `${mark(!!agents)} ${vscode.l10n.t('By Agent…')}`, detail: agents ? vscode.l10n.t('Now: {0}', agents) : vscode.l10n.t('The sessions of the agents you pick'), value: 'agents' },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Filter Sessions'), placeHolder: vscode.l10n.t('Which sessions the tree shows'), ...pickerFocusOptions() });
  if (!picked?.value) return;
  if (picked.value === 'agents') {
    const chosen = await pickAgents(tree);
    if (chosen) await tree.setOptions({ ...tree.options, agents: chosen });
  } else if (picked.value === 'everything') await clearSessionFilter(tree);
  else await tree.setOptions({ ...tree.options, show: picked.value });
}

async function pickAgents(tree: ArrangedTree): Promise<string[] | undefined> {
  const names = [...new Set([...tree.agentNames(), ...tree.options.agents])];
  const items = names.map((name) => ({ label: inertUiText(name), name, picked: tree.options.agents.includes(name) }));
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Show the Sessions of Which Agents?'), placeHolder: vscode.l10n.t('None checked: every agent'), canPickMany: true, ...pickerFocusOptions() });
  return picked?.map((p) => p.name);
}

/** The title bar's bell: only the sessions that need you, or everything again. */
export function showOnlyNeedsMe(tree: ArrangedTree): Promise<void> {
  return tree.setOptions({ ...tree.options, show: tree.options.show === 'needsMe' ? 'everything' : 'needsMe' });
}

/** Every filter off; the sort stays. */
export function clearSessionFilter(tree: ArrangedTree): Promise<void> {
  return tree.setOptions({ ...tree.options, show: 'everything', agents: [] });
}
