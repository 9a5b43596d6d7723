// "Change Mode or Option…": the session modes and config options the agent advertised for a session,
// offered as one quick pick (the same pickers as the chat header: src/presentation/sessionSettings.ts).
// Only advertised values can be chosen; the connection checks them again.
import * as vscode from 'vscode';
import { pickerFocusOptions } from './pickerFocus';
import type { ChatSettingChange } from '../protocol/webviewMessages';
import type { SessionView } from '../store/model';
import { isAdvertisedChange, sessionSettings } from '../presentation';
import { inertUiText } from '../host/uiText';

export type SessionSettingChange = ChatSettingChange;

/** A change given as a command argument (the chat header's pickers), if it names an advertised value. */
export function advertisedChange(session: SessionView, arg: unknown): SessionSettingChange | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const change = arg as Partial<Record<string, unknown>>;
  const settings = sessionSettings(session);
  if (change['kind'] === 'mode' && typeof change['modeId'] === 'string' && isAdvertisedChange(settings, 'mode', 'mode', change['modeId'])) {
    return { kind: 'mode', modeId: change['modeId'] };
  }
  const value = change['value'];
  if (change['kind'] === 'option' && typeof change['configId'] === 'string' && (typeof value === 'string' || typeof value === 'boolean') && isAdvertisedChange(settings, 'option', change['configId'], value)) {
    return { kind: 'option', configId: change['configId'], value };
  }
  return undefined;
}

/** `undefined` when there is nothing to change or the user dismissed the picker. */
export async function pickSessionSetting(session: SessionView): Promise<SessionSettingChange | undefined> {
  type Item = vscode.QuickPickItem & { change?: SessionSettingChange };
  const items: Item[] = [];
  for (const setting of sessionSettings(session)) {
    const name = inertUiText(setting.name);
    items.push({ label: name, kind: vscode.QuickPickItemKind.Separator });
    if (setting.type === 'boolean') {
      const next = setting.current !== true;
      items.push({ label: next ? vscode.l10n.t('{0}: turn on', name) : vscode.l10n.t('{0}: turn off', name), change: { kind: 'option', configId: setting.id, value: next } });
      continue;
    }
    for (const choice of setting.choices) {
      const change: SessionSettingChange = setting.kind === 'mode' ? { kind: 'mode', modeId: choice.value } : { kind: 'option', configId: setting.id, value: choice.value };
      items.push({
        label: `${choice.value === setting.current ? '$(check) ' : ''}${inertUiText(choice.name)}`,
        description: setting.kind === 'mode' ? (choice.description ? inertUiText(choice.description) : undefined) : name,
        change,
      });
    }
  }
  if (!items.some((i) => i.change)) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Subchats: the agent advertised no modes or options for this session.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Change the session mode or an option'), ...pickerFocusOptions() });
  return picked?.change;
}
