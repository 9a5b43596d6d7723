// Records the CSS variables and body classes real VS Code (the code-server in .cache) gives a webview in each
// default theme, into test/component/themes/webviewThemes.json: the component tests draw the chat with them, so
// contrast is checked against the colours users get. Run after a VS Code update:
//   node scripts/capture-webview-themes.mjs
// It opens a Markdown preview (a built-in webview) in each theme and reads its content frame.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { codeServerDir, repoRoot, startCodeServer, workbenchUrl } from './code-server/codeServer.mjs';

/** Our name for each theme, and VS Code's. */
const THEMES = {
  light: 'Default Light Modern',
  dark: 'Default Dark Modern',
  'high-contrast': 'Default High Contrast',
  'high-contrast-light': 'Default High Contrast Light',
};
const THEME_CLASS = /^vscode-(light|dark|high-contrast|high-contrast-light)$/;
const output = join(repoRoot, 'test/component/themes/webviewThemes.json');

const scratch = mkdtempSync(join(tmpdir(), 'subchats-themes-'));
const workspace = join(scratch, 'workspace');
mkdirSync(workspace);
writeFileSync(join(workspace, 'README.md'), '# Theme probe\n');
const { version } = JSON.parse(readFileSync(join(codeServerDir, 'node_modules/code-server/lib/vscode/package.json'), 'utf8'));

const themes = {};
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  for (const [name, vscodeTheme] of Object.entries(THEMES)) {
    const server = await startCodeServer({ stateDir: join(scratch, name), settings: { 'workbench.colorTheme': vscodeTheme, 'window.autoDetectHighContrast': false } });
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
      await page.goto(workbenchUrl(server.baseUrl, { folder: workspace }));
      await page.locator('.explorer-folders-view').getByText('README.md').click();
      await page.locator('.editor-instance .view-lines').getByText('Theme probe').waitFor();
      await page.keyboard.press('F1');
      await page.locator('.quick-input-widget input').fill('>Markdown: Open Preview to the Side');
      await page.locator('.quick-input-list .monaco-list-row').getByText('Markdown: Open Preview to the Side', { exact: true }).first().waitFor();
      await page.keyboard.press('Enter');
      const body = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame').locator('body.vscode-body');
      await body.getByText('Theme probe').waitFor();
      themes[name] = await body.evaluate((element, themeClass) => {
        const style = document.documentElement.style;
        const variables = {};
        for (let i = 0; i < style.length; i++) {
          const property = style.item(i);
          if (property.startsWith('--vscode-')) variables[property] = style.getPropertyValue(property).trim();
        }
        return {
          bodyClasses: [...element.classList].filter((c) => new RegExp(themeClass).test(c)),
          themeKind: element.dataset.vscodeThemeKind ?? '',
          variables,
        };
      }, THEME_CLASS.source);
      themes[name] = { vscodeTheme, ...themes[name] };
      console.log(`${name}: ${Object.keys(themes[name].variables).length} variables, body ${themes[name].bodyClasses.join(' ')}`);
      await page.close();
    } finally {
      await server.stop();
    }
  }
} finally {
  await browser.close();
  rmSync(scratch, { recursive: true, force: true });
}
mkdirSync(join(output, '..'), { recursive: true });
writeFileSync(output, `${JSON.stringify({ source: `VS Code ${version} (code-server), a webview's variables per default theme`, themes }, null, 1)}\n`);
console.log(`wrote ${output}`);
