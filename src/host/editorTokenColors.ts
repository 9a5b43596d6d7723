// The active colour theme's code token colours, for the chat's code blocks. VS Code gives webviews its theme's
// UI colours as CSS variables but no token colours, so they are read from the theme's own file: the theme
// contribution whose id (or label) the settings name, checked against the kind of theme VS Code shows, then
// its JSONC and includes, then the user's `editor.tokenColorCustomizations`. Read on first need and again when
// the theme, those settings or the installed extensions change. Unreadable: null (the webview falls back to
// theme variables).
import * as vscode from 'vscode';
import { codeTokenStyles, customizedTokenRules } from './themeTokenColors';
import type { CodeTokenStyles } from '../protocol/webviewMessages';
import { readThemeTokenColors } from './colorThemeFile';

const UI_THEME_KIND: Readonly<Record<string, vscode.ColorThemeKind>> = {
  vs: vscode.ColorThemeKind.Light,
  'vs-dark': vscode.ColorThemeKind.Dark,
  'hc-black': vscode.ColorThemeKind.HighContrast,
  'hc-light': vscode.ColorThemeKind.HighContrastLight,
};

const PREFERRED_SETTING: Readonly<Record<vscode.ColorThemeKind, string>> = {
  [vscode.ColorThemeKind.Light]: 'preferredLightColorTheme',
  [vscode.ColorThemeKind.Dark]: 'preferredDarkColorTheme',
  [vscode.ColorThemeKind.HighContrast]: 'preferredHighContrastColorTheme',
  [vscode.ColorThemeKind.HighContrastLight]: 'preferredHighContrastLightColorTheme',
};

const WATCHED_SETTINGS = ['workbench.colorTheme', 'workbench.preferredDarkColorTheme', 'workbench.preferredLightColorTheme', 'workbench.preferredHighContrastColorTheme', 'workbench.preferredHighContrastLightColorTheme', 'window.autoDetectColorScheme', 'editor.tokenColorCustomizations'];

interface ThemeContribution {
  readonly extension: vscode.Extension<unknown>;
  readonly settingsId: string;
  readonly label: string;
  readonly path: string;
  readonly uiTheme: string;
}

/** The theme ids the settings name for the active kind of theme, the likeliest first. */
function themeIdCandidates(kind: vscode.ColorThemeKind): string[] {
  const workbench = vscode.workspace.getConfiguration('workbench');
  const chosen = workbench.get<string>('colorTheme');
  const preferred = workbench.get<string>(PREFERRED_SETTING[kind]);
  // With the OS deciding light or dark, the preferred theme of that kind is the one shown.
  const autoDetect = vscode.workspace.getConfiguration('window').get<boolean>('autoDetectColorScheme', false);
  const ids = autoDetect ? [preferred, chosen] : [chosen, preferred];
  return ids.filter((id): id is string => typeof id === 'string' && id !== '');
}

function themeContributions(): ThemeContribution[] {
  const found: ThemeContribution[] = [];
  for (const extension of vscode.extensions.all) {
    const themes = (extension.packageJSON as { contributes?: { themes?: unknown } } | undefined)?.contributes?.themes;
    if (!Array.isArray(themes)) continue;
    for (const theme of themes as Record<string, unknown>[]) {
      if (typeof theme.path !== 'string' || typeof theme.uiTheme !== 'string') continue;
      const label = typeof theme.label === 'string' ? theme.label : '';
      const settingsId = typeof theme.id === 'string' ? theme.id : label;
      found.push({ extension, settingsId, label, path: theme.path, uiTheme: theme.uiTheme });
    }
  }
  return found;
}

/** The contribution of the theme VS Code shows: named by the settings and of the kind it shows. */
function activeThemeContribution(): ThemeContribution | undefined {
  const kind = vscode.window.activeColorTheme.kind;
  const contributions = themeContributions();
  for (const id of themeIdCandidates(kind)) {
    const match = contributions.find((c) => (c.settingsId === id || c.label === id) && UI_THEME_KIND[c.uiTheme] === kind);
    if (match) return match;
  }
  return undefined;
}

async function readActiveTokenStyles(): Promise<CodeTokenStyles | null> {
  const theme = activeThemeContribution();
  if (!theme) return null;
  const root = theme.extension.extensionUri;
  const file = vscode.Uri.joinPath(root, theme.path);
  const colors = await readThemeTokenColors(file.path, async (filePath) => new TextDecoder().decode(await vscode.workspace.fs.readFile(root.with({ path: filePath }))));
  if (!colors) return null;
  const customizations = vscode.workspace.getConfiguration('editor').get<unknown>('tokenColorCustomizations');
  return codeTokenStyles({ ...colors, rules: [...colors.rules, ...customizedTokenRules(customizations, [theme.settingsId, theme.label])] });
}

export class EditorTokenColors implements vscode.Disposable {
  private current: Promise<CodeTokenStyles | null> | undefined;
  private readonly changed = new vscode.EventEmitter<CodeTokenStyles | null>();
  /** Fires with the new styles after the theme (or what colours it) changed, once they are read. */
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(private readonly log?: (text: string) => void) {
    const reread = (): void => {
      if (this.current === undefined) return;
      this.current = undefined;
      const read = this.styles();
      void read.then((styles) => {
        if (read === this.current) this.changed.fire(styles);
      });
    };
    this.disposables.push(
      vscode.window.onDidChangeActiveColorTheme(reread),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (WATCHED_SETTINGS.some((setting) => event.affectsConfiguration(setting))) reread();
      }),
      vscode.extensions.onDidChange(reread),
    );
  }

  /** The active theme's token styles (read on first need), or null when the theme cannot be read. */
  styles(): Promise<CodeTokenStyles | null> {
    this.current ??= readActiveTokenStyles().catch((error: unknown) => {
      this.log?.(`Code colours: could not read the colour theme (${error instanceof Error ? error.message : String(error)}); using theme variables`);
      return null;
    });
    return this.current;
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }
}
