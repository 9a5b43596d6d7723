// Subchats: Add Agent…: the ACP registry's agents in a quick pick (Refresh fetches again; offline or on a bad
// answer the title says so and the built-in presets are offered), and the chosen one written to `subchats.agents`.
// A binary distribution is downloaded only after a modal names what comes from where and where it goes.
import * as vscode from 'vscode';
import { createQuickPick } from './pickerFocus';
import { AGENT_PRESETS } from '../host/agentPresets';
import { installBinary, installFolder } from '../host/registry/binaryInstall';
import { platformKey } from '../host/registry/platformKey';
import { withAgentEntry, type AgentSettingEntry } from '../host/registry/registryEntry';
import { DEFAULT_REGISTRY_URL, loadRegistry, type CacheStore } from '../host/registry/registrySource';
import { inertUiText, toastError } from '../host/uiText';
import { quickPickAnswer } from './quickPickAnswer';
import { configuredAgents, presetItems, registryItems, type AddAgentChoice, type AddAgentItem } from './addAgentItems';

export interface AddAgentContext {
  /** Where the fetched registry is kept for an hour (globalState). */
  readonly cache: CacheStore;
  /** Where binary agents are unpacked (a folder of globalStorage). */
  readonly agentsRoot: string;
  readonly log: (text: string) => void;
}

const title = () => vscode.l10n.t('Add Agent from the ACP Registry');

function settings() {
  return vscode.workspace.getConfiguration('subchats');
}

/** Fills the picker from the registry (or the presets, saying why) and resolves with the row the user accepts. */
function pickChoice(ctx: AddAgentContext): Promise<AddAgentChoice | undefined> {
  const pick = createQuickPick<AddAgentItem>();
  const refresh: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('refresh'), tooltip: vscode.l10n.t('Refresh') };
  pick.title = title();
  pick.placeholder = vscode.l10n.t('Add which agent to subchats.agents?');
  pick.buttons = [refresh];
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  let loads = 0;
  const fill = async (refreshing: boolean) => {
    const load = ++loads;
    pick.busy = true;
    const configured = configuredAgents(settings().get('agents'));
    const url = settings().get<string>('registryUrl', DEFAULT_REGISTRY_URL) || DEFAULT_REGISTRY_URL;
    try {
      const registry = await loadRegistry({ url, cache: ctx.cache, refresh: refreshing });
      if (load !== loads) return;
      for (const dropped of registry.dropped) ctx.log(`Agent registry: entry ${dropped.index}${dropped.id ? ` (${dropped.id})` : ''} skipped: ${dropped.reason}`);
      pick.title = registry.fromCache
        ? vscode.l10n.t('{0} ({1} agents, fetched {2})', title(), registry.agents.length, new Date(registry.fetchedAt).toLocaleTimeString())
        : vscode.l10n.t('{0} ({1} agents)', title(), registry.agents.length);
      pick.items = registryItems(registry.agents, configured, platformKey());
    } catch (error) {
      if (load !== loads) return;
      const reason = toastError(error);
      ctx.log(`Agent registry ${url}: ${reason}`);
      pick.title = vscode.l10n.t('{0}: the registry could not be read; showing the built-in presets', title());
      const notice = { label: vscode.l10n.t('Registry unavailable ({0})', reason), kind: vscode.QuickPickItemKind.Separator } as AddAgentItem;
      pick.items = [notice, ...presetItems(AGENT_PRESETS, configured)];
    } finally {
      if (load === loads) pick.busy = false;
    }
  };
  const answer = quickPickAnswer<AddAgentItem, AddAgentChoice>(pick, (active, settle) => active && settle(active.choice), [
    pick.onDidTriggerButton((button) => button === refresh && void fill(true)),
  ]);
  void fill(false);
  return answer;
}

/** Downloads and unpacks after the user confirms; undefined when they do not. */
async function downloadedEntry(ctx: AddAgentContext, choice: Extract<AddAgentChoice, { from: 'registry' }>): Promise<AgentSettingEntry | undefined> {
  if (choice.plan.kind !== 'download') return undefined;
  const { target, entryFor } = choice.plan;
  const name = inertUiText(choice.agent.name, 80);
  const folder = installFolder(ctx.agentsRoot, choice.agent.id, choice.agent.version);
  const download = vscode.l10n.t('Download');
  const detail = [
    vscode.l10n.t('From: {0}', inertUiText(target.archive, 300)),
    vscode.l10n.t('Into: {0}', folder),
    target.sha256 ? vscode.l10n.t('Checked against the sha256 the registry gives.') : vscode.l10n.t('The registry gives no sha256 to check it against.'),
    vscode.l10n.t('Then subchats.agents runs {0} from there. Nothing runs until you start a session with it.', inertUiText(target.cmd, 120)),
  ].join('\n');
  const answer = await vscode.window.showWarningMessage(vscode.l10n.t('Download {0} {1}?', name, inertUiText(choice.agent.version, 40)), { modal: true, detail }, download);
  if (answer !== download) return undefined;
  const command = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Downloading {0}…', name) }, () => installBinary(target, folder));
  return entryFor(command);
}

async function entryFor(ctx: AddAgentContext, choice: AddAgentChoice): Promise<AgentSettingEntry | undefined> {
  if (choice.from === 'preset') return choice.entry;
  switch (choice.plan.kind) {
    case 'ready':
      return choice.plan.entry;
    case 'download':
      return downloadedEntry(ctx, choice);
    case 'unavailable':
      void vscode.window.showWarningMessage(vscode.l10n.t('Subchats: cannot add {0}: {1}.', inertUiText(choice.agent.name, 80), inertUiText(choice.plan.reason, 300)));
      return undefined;
  }
}

/** Resolves with the entry written to `subchats.agents` (undefined when nothing was added). */
async function addAgentCommand(ctx: AddAgentContext): Promise<AgentSettingEntry | undefined> {
  const choice = await pickChoice(ctx);
  const entry = choice && (await entryFor(ctx, choice));
  if (!entry) return undefined;
  await settings().update('agents', withAgentEntry(settings().get('agents'), entry), vscode.ConfigurationTarget.Global);
  const start = vscode.l10n.t('New Session');
  void vscode.window.showInformationMessage(vscode.l10n.t('Subchats: added {0} to subchats.agents.', inertUiText(entry.name, 80)), start).then((answer) => {
    if (answer === start) void vscode.commands.executeCommand('subchats.newSession', entry.id);
  });
  return entry;
}

export function registerAddAgentCommand(ctx: AddAgentContext): vscode.Disposable {
  return vscode.commands.registerCommand('subchats.addAgent', async () => {
    try {
      return await addAgentCommand(ctx);
    } catch (error) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Subchats: Add Agent failed: {0}', toastError(error)));
      return undefined;
    }
  });
}
