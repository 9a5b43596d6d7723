// The session settings an agent advertised (modes, config options) as pickers: one reading for the chat
// header and "Change Mode or Option…", so both offer the same choices. Agent input is read defensively.
import type { ChatSessionSetting, ChatSettingChoice } from '../protocol/webviewMessages';

type Raw = Record<string, unknown>;

const isRaw = (value: unknown): value is Raw => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

function choice(value: unknown): ChatSettingChoice | undefined {
  if (!isRaw(value) || typeof value['value'] !== 'string') return undefined;
  const description = text(value['description']);
  return { value: value['value'], name: text(value['name']) ?? value['value'], ...(description ? { description } : {}) };
}

/** A select's choices, flat (grouped options are listed in their groups' order). */
function choicesOf(options: unknown): ChatSettingChoice[] {
  if (!Array.isArray(options)) return [];
  return options.flatMap((item) => (isRaw(item) && Array.isArray(item['options']) ? item['options'].map(choice) : [choice(item)])).filter((c): c is ChatSettingChoice => c !== undefined);
}

function modePicker(modes: unknown, currentModeId: string | null): ChatSessionSetting | undefined {
  if (!isRaw(modes) || !Array.isArray(modes['availableModes'])) return undefined;
  const choices = modes['availableModes']
    .map((mode) => (isRaw(mode) && typeof mode['id'] === 'string' ? choice({ value: mode['id'], name: mode['name'], description: mode['description'] }) : undefined))
    .filter((c): c is ChatSettingChoice => c !== undefined);
  if (choices.length === 0) return undefined;
  const current = currentModeId ?? (typeof modes['currentModeId'] === 'string' ? modes['currentModeId'] : null);
  return { kind: 'mode', id: 'mode', name: 'Mode', type: 'select', current, choices };
}

/** A config option's id: `id` in ACP v1, `configId` in v2. */
export function configOptionId(option: unknown): string | undefined {
  if (!isRaw(option)) return undefined;
  const id = option['id'] ?? option['configId'];
  return typeof id === 'string' ? id : undefined;
}

function optionPicker(option: unknown): ChatSessionSetting | undefined {
  const id = configOptionId(option);
  if (!isRaw(option) || id === undefined) return undefined;
  const name = text(option['name']) ?? id;
  if (option['type'] === 'boolean') return { kind: 'option', id, name, type: 'boolean', current: option['currentValue'] === true, choices: [] };
  const choices = choicesOf(option['options']);
  if (choices.length === 0) return undefined;
  const current = typeof option['currentValue'] === 'string' ? option['currentValue'] : null;
  return { kind: 'option', id, name, type: 'select', current, choices };
}

/**
 * Modes first, then config options. A config option of category `mode` repeats the modes when both are
 * advertised (ACP v1 agents send both for older clients): it is left out then, so "Mode" appears once.
 */
export function sessionSettings(session: { readonly modes: unknown; readonly currentModeId: string | null; readonly configOptions: unknown }): ChatSessionSetting[] {
  const mode = modePicker(session.modes, session.currentModeId);
  const options = Array.isArray(session.configOptions) ? session.configOptions : [];
  const pickers = options.filter((option) => !(mode && isRaw(option) && option['category'] === 'mode')).map(optionPicker);
  return [mode, ...pickers].filter((p): p is ChatSessionSetting => p !== undefined);
}

/** A change a picker may send: only to an advertised setting, only an advertised value. */
export function isAdvertisedChange(settings: readonly ChatSessionSetting[], kind: 'mode' | 'option', id: string, value: string | boolean): boolean {
  const setting = settings.find((s) => s.kind === kind && s.id === id);
  if (!setting) return false;
  return setting.type === 'boolean' ? typeof value === 'boolean' : typeof value === 'string' && setting.choices.some((c) => c.value === value);
}
