// The settings package.json contributes, read as VS Code reads them: one section or a list of titled sections.
import { manifest } from './manifest';

export interface ContributedSetting {
  readonly type?: string;
  readonly order?: number;
  readonly scope?: string;
  readonly default?: unknown;
  readonly description?: string;
  readonly markdownDescription?: string;
  readonly enum?: readonly unknown[];
  readonly enumDescriptions?: readonly string[];
  readonly markdownEnumDescriptions?: readonly string[];
  readonly items?: Record<string, unknown>;
  readonly [key: string]: unknown;
}

export interface SettingsSection {
  readonly title?: string;
  readonly order?: number;
  readonly properties: Readonly<Record<string, ContributedSetting>>;
}

export function settingsSections(): SettingsSection[] {
  const { contributes } = manifest<{ contributes: { configuration: SettingsSection | SettingsSection[] } }>();
  return ([] as SettingsSection[]).concat(contributes.configuration);
}

/** Every contributed setting by key, whatever section it is in. */
export function contributedSettings(): Map<string, ContributedSetting> {
  return new Map(settingsSections().flatMap((section) => Object.entries(section.properties)));
}
