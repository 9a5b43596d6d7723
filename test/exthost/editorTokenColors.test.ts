// The editor theme's code colours in real VS Code: the active theme is found among the installed extensions'
// contributions and read from its file (Dark Modern's keywords are #569cd6), a change of theme is followed
// (Light Modern's are #0000ff), and the user's token colour customizations apply.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EditorTokenColors } from '../../src/host/editorTokenColors';
import type { CodeTokenStyles } from '../../src/protocol/webviewMessages';

const THEME_SETTINGS = ['colorTheme'] as const;

function nextChange(colors: EditorTokenColors, accept: (styles: CodeTokenStyles | null) => boolean): Promise<CodeTokenStyles | null> {
  return new Promise((resolve) => {
    const listener = colors.onDidChange((styles) => {
      if (!accept(styles)) return;
      listener.dispose();
      resolve(styles);
    });
  });
}

/** Sets the colour theme and resolves once VS Code shows it (the setting applies after `update` resolves). */
async function useTheme(id: string): Promise<void> {
  const workbench = vscode.workspace.getConfiguration('workbench');
  if (workbench.get('colorTheme') === id) return;
  const shown = new Promise<void>((resolve) => {
    const listener = vscode.window.onDidChangeActiveColorTheme(() => {
      listener.dispose();
      resolve();
    });
  });
  await workbench.update('colorTheme', id, vscode.ConfigurationTarget.Global);
  await shown;
}

describe('editor token colours', function () {
  this.timeout(60_000);
  const workbench = () => vscode.workspace.getConfiguration('workbench');
  const saved: Record<string, unknown> = {};
  let colors: EditorTokenColors | undefined;

  before(async () => {
    for (const key of THEME_SETTINGS) saved[key] = workbench().inspect(key)?.globalValue;
    await useTheme('Default Dark Modern');
  });
  afterEach(async () => {
    colors?.dispose();
    colors = undefined;
    await vscode.workspace.getConfiguration('editor').update('tokenColorCustomizations', undefined, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    for (const key of THEME_SETTINGS) await workbench().update(key, saved[key], vscode.ConfigurationTarget.Global);
  });

  it("reads the active theme's token colours from its file, and follows a change of theme", async () => {
    assert.equal(vscode.window.activeColorTheme.kind, vscode.ColorThemeKind.Dark);
    colors = new EditorTokenColors();
    const dark = await colors.styles();
    assert.equal(dark?.keyword?.color, '#569cd6');
    assert.equal(dark?.string?.color, '#ce9178');
    assert.equal(dark?.['title.function']?.color, '#dcdcaa');

    const light = nextChange(colors, (styles) => styles?.keyword?.color === '#0000ff');
    await useTheme('Default Light Modern');
    assert.equal((await light)?.string?.color, '#a31515');
    assert.equal(vscode.window.activeColorTheme.kind, vscode.ColorThemeKind.Light);
    await useTheme('Default Dark Modern');
  });

  it('applies the user\'s token colour customizations, those for the theme last', async () => {
    colors = new EditorTokenColors();
    await colors.styles();
    const customized = nextChange(colors, (styles) => styles?.comment?.color === '#ff00ff');
    await vscode.workspace
      .getConfiguration('editor')
      .update('tokenColorCustomizations', { comments: '#ff0000', '[Default Dark Modern]': { comments: '#ff00ff' } }, vscode.ConfigurationTarget.Global);
    assert.equal((await customized)?.keyword?.color, '#569cd6');
  });
});
