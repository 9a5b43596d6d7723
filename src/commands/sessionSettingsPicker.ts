// "Change Mode or Option…": the session modes and config options the agent advertised for a session,
// offered as one quick pick. Only advertised values can be chosen; the connection checks them again.
import * as vscode from 'vscode';
import type { SessionView } from '../store/model';
import { configOptionId } from '../store/sessionSettings';
import { inertUiText } from '../host/uiText';

export type SessionSettingChange =
  | { readonly kind: 'mode'; readonly modeId: string }
  | { readonly kind: 'option'; readonly configId: string; readonly value: string | boolean };

interface ModeState {
  readonly currentModeId?: string;
  readonly availableModes?: readonly { id: string; name?: string; description?: string | null }[];
}

interface ConfigOption {
  readonly name?: string;
  readonly type?: string;
  readonly currentValue?: string | boolean;
  readonly options?: readonly ({ value: string; name?: string } | { group?: string; options?: readonly { value: string; name?: string }[] })[];
}

function flatChoices(option: ConfigOption): { value: string; name: string }[] {
  const out: { value: string; name: string }[] = [];
  for (const item of option.options ?? []) {
    if ('value' in item && typeof item.value === 'string') out.push({ value: item.value, name: item.name ?? item.value });
    else if ('options' in item) for (const inner of item.options ?? []) out.push({ value: inner.value, name: inner.name ?? inner.value });
  }
  return out;
}

/** `undefined` when there is nothing to change or the user dismissed the picker. */
export async function pickSessionSetting(session: SessionView): Promise<SessionSettingChange | undefined> {
  type Item = vscode.QuickPickItem & { change?: SessionSettingChange };
  const items: Item[] = [];
  const modes = (session.modes ?? {}) as ModeState;
  const currentMode = session.currentModeId ?? modes.currentModeId;
  if (modes.availableModes?.length) {
    items.push({ label: 'Mode', kind: vscode.QuickPickItemKind.Separator });
    for (const mode of modes.availableModes) {
      items.push({ label: `${mode.id === currentMode ? '$(check) ' : ''}${inertUiText(mode.name ?? mode.id)}`, description: mode.description ? inertUiText(mode.description) : undefined, change: { kind: 'mode', modeId: mode.id } });
    }
  }
  const options = Array.isArray(session.configOptions) ? (session.configOptions as ConfigOption[]) : [];
  for (const option of options) {
    const id = configOptionId(option);
    if (id === undefined) continue;
    const optionName = inertUiText(option.name ?? id);
    items.push({ label: optionName, kind: vscode.QuickPickItemKind.Separator });
    if (option.type === 'boolean') {
      const next = option.currentValue !== true;
      items.push({ label: `${optionName}: turn ${next ? 'on' : 'off'}`, change: { kind: 'option', configId: id, value: next } });
      continue;
    }
    for (const choice of flatChoices(option)) {
      items.push({ label: `${choice.value === option.currentValue ? '$(check) ' : ''}${inertUiText(choice.name)}`, description: optionName, change: { kind: 'option', configId: id, value: choice.value } });
    }
  }
  if (!items.some((i) => i.change)) {
    void vscode.window.showInformationMessage('Subchats: the agent advertised no modes or options for this session.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, { placeHolder: 'Change the session mode or an option' });
  return picked?.change;
}
