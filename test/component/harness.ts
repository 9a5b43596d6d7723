// Runs the real chat bundle in headless Chromium: builds dist, serves it with the production HTML (same CSP)
// from 127.0.0.1, stubs acquireVsCodeApi, records what the webview posts and any CSP violation.
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { after, before } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { HostToWebviewMessage, WebviewToHostMessage } from '../../src/protocol/webviewMessages';
import { buildChatHtml, createNonce } from '../../src/webviews/chatHtml';

export const repoRoot = join(import.meta.dirname, '..', '..');
const distDir = join(repoRoot, 'dist');

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.ttf': 'font/ttf',
  '.map': 'application/json',
  '.html': 'text/html',
};

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
];

export function buildBundle(): void {
  if (process.env.SUBCHATS_SKIP_BUILD === '1') return;
  execFileSync(process.execPath, [join(repoRoot, 'scripts', 'build.mjs')], { cwd: repoRoot, stdio: 'inherit' });
}

/** Installed before the bundle: a fake VS Code API that records posts, and a CSP violation log. */
const HOST_STUB = `
window.__posted = [];
window.__cspViolations = [];
window.__pwned = false;
window.__state = undefined;
document.addEventListener('securitypolicyviolation', (e) => {
  window.__cspViolations.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample });
});
window.acquireVsCodeApi = () => ({
  postMessage: (m) => window.__posted.push(JSON.parse(JSON.stringify(m))),
  getState: () => window.__state,
  setState: (s) => { window.__state = s; },
});
`;

/** A few of the variables VS Code injects into webviews (Dark Modern), so screenshots look like the product. */
const DARK_THEME = `
html { --vscode-font-family: system-ui, "Ubuntu", "Droid Sans", sans-serif; --vscode-font-size: 13px;
  --vscode-editor-font-family: "Droid Sans Mono", monospace; --vscode-editor-font-size: 13px;
  --vscode-foreground: #cccccc; --vscode-descriptionForeground: #9d9d9d; --vscode-editor-background: #1f1f1f;
  --vscode-sideBar-background: #181818; --vscode-panel-border: #2b2b2b; --vscode-focusBorder: #0078d4;
  --vscode-button-background: #0078d4; --vscode-button-foreground: #ffffff; --vscode-button-hoverBackground: #026ec1;
  --vscode-button-secondaryBackground: #313131; --vscode-button-secondaryForeground: #cccccc;
  --vscode-input-background: #313131; --vscode-input-foreground: #cccccc; --vscode-input-border: #3c3c3c;
  --vscode-textLink-foreground: #4daafc; --vscode-textCodeBlock-background: #2b2b2b;
  --vscode-toolbar-hoverBackground: rgba(90, 93, 94, 0.31); --vscode-errorForeground: #f85149;
  --vscode-charts-blue: #3794ff; --vscode-charts-orange: #d18616; --vscode-charts-purple: #b180d7;
  --vscode-notificationsWarningIcon-foreground: #cca700; --vscode-notificationsInfoIcon-foreground: #3794ff;
  --vscode-terminal-ansiRed: #f14c4c; --vscode-terminal-ansiGreen: #23d18b; --vscode-terminal-ansiBrightRed: #f14c4c;
  --vscode-testing-iconPassed: #73c991; --vscode-icon-foreground: #cccccc; }
`;

/** Extra pages the server can serve (the benchmark's baseline page). */
export type ExtraRoutes = Record<string, (origin: string, nonce: string) => string>;

export interface Harness {
  readonly origin: string;
  readonly browser: Browser;
  /** Opens the chat page (or another served page that posts `ready`) and waits for `ready`. */
  openChat(options?: { width?: number; height?: number; path?: string }): Promise<ChatPage>;
  close(): Promise<void>;
}

export async function startHarness(extraRoutes: ExtraRoutes = {}): Promise<Harness> {
  const server = await listen(extraRoutes);
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  return {
    origin,
    browser,
    async openChat(options = {}) {
      const page = await browser.newPage({ viewport: { width: options.width ?? 900, height: options.height ?? 800 } });
      const chat = new ChatPage(page);
      page.on('pageerror', (error) => chat.pageErrors.push(error.message));
      await page.goto(`${origin}${options.path ?? '/chat.html'}`);
      await chat.waitForPosted((m) => m.type === 'ready');
      return chat;
    },
    async close() {
      await browser.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function listen(extraRoutes: ExtraRoutes): Promise<Server> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const origin = `http://${request.headers.host ?? '127.0.0.1'}`;
    const nonce = createNonce();
    const route =
      url.pathname === '/chat.html'
        ? chatPage
        : url.pathname === '/chat-high-contrast.html'
          ? (o: string, n: string) => chatPage(o, n, 'high-contrast')
          : extraRoutes[url.pathname];
    if (route) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(route(origin, nonce));
      return;
    }
    const path = normalize(join(distDir, decodeURIComponent(url.pathname.replace(/^\/dist\//, '/'))));
    if (!url.pathname.startsWith('/dist/') || !path.startsWith(distDir + sep)) {
      response.writeHead(404).end();
      return;
    }
    readFile(path).then(
      (body) => {
        response.writeHead(200, { 'content-type': CONTENT_TYPES[extname(path)] ?? 'application/octet-stream' });
        response.end(body);
      },
      () => response.writeHead(404).end(),
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** The production chat HTML with the host stub inserted before the bundle. */
export function chatPage(origin: string, nonce: string, theme: keyof typeof THEMES = 'dark'): string {
  const html = buildChatHtml({
    cspSource: origin,
    nonce,
    scriptUri: `${origin}/dist/webview.js`,
    codiconsUri: `${origin}/dist/codicons/codicon.css`,
    title: 'Subchats test',
  });
  return withTestHost(html, nonce, theme);
}

/** High Contrast: the variables that change how the chat draws (VS Code's hc-black values). */
const HIGH_CONTRAST_THEME = `${DARK_THEME}
html { --vscode-foreground: #ffffff; --vscode-editor-background: #000000; --vscode-sideBar-background: #000000;
  --vscode-contrastBorder: #6fc3df; --vscode-contrastActiveBorder: #f38518; --vscode-focusBorder: #f38518;
  --vscode-button-background: #000000; --vscode-button-border: #6fc3df; --vscode-descriptionForeground: #ffffff;
  --vscode-input-background: #000000; --vscode-input-border: #6fc3df; }`;

const THEMES = {
  dark: { css: DARK_THEME, bodyClass: 'vscode-dark' },
  'high-contrast': { css: HIGH_CONTRAST_THEME, bodyClass: 'vscode-high-contrast' },
} as const;

/**
 * What VS Code puts in every webview before the page's own styles (its default styles): inline code in the
 * theme's preformatted-text colours. The chat must undo it inside code blocks.
 */
const VSCODE_DEFAULT_STYLES = `
code { color: var(--vscode-textPreformat-foreground); background-color: var(--vscode-textPreformat-background); padding: 1px 3px; border-radius: 4px; }
pre code { padding: 0; }
html { --vscode-textPreformat-foreground: #d7ba7d; --vscode-textPreformat-background: rgba(255, 0, 0, 0.3); }`;

/** Adds VS Code's default styles, a theme's variables and the host stub (before any other script) to a page. */
export function withTestHost(html: string, nonce: string, theme: keyof typeof THEMES = 'dark'): string {
  const { css, bodyClass } = THEMES[theme];
  return html
    .replace('<head>', `<head>\n<style nonce="${nonce}">${VSCODE_DEFAULT_STYLES}</style>`)
    .replace('</head>', `<style nonce="${nonce}">${css}</style>\n</head>`)
    .replace('<body>', `<body class="${bodyClass}">\n<script nonce="${nonce}">${HOST_STUB}</script>`);
}

export class ChatPage {
  readonly pageErrors: string[] = [];

  constructor(readonly page: Page) {}

  /** Delivers a host message the way VS Code does (a window `message` event). */
  async send(message: HostToWebviewMessage): Promise<void> {
    await this.page.evaluate((m) => window.postMessage(m, '*'), message as unknown);
  }

  async posted(): Promise<WebviewToHostMessage[]> {
    return this.page.evaluate(() => (window as unknown as { __posted: WebviewToHostMessage[] }).__posted);
  }

  async waitForPosted(predicate: (message: WebviewToHostMessage) => boolean): Promise<WebviewToHostMessage> {
    for (;;) {
      const all = await this.posted();
      const found = all.find(predicate);
      if (found) return found;
      await this.page.waitForFunction(
        (count) => (window as unknown as { __posted: unknown[] }).__posted.length > count,
        all.length,
      );
    }
  }

  async clearPosted(): Promise<void> {
    await this.page.evaluate(() => {
      (window as unknown as { __posted: unknown[] }).__posted = [];
    });
  }

  async cspViolations(): Promise<{ directive: string; blocked: string; sample: string }[]> {
    return this.page.evaluate(() => (window as unknown as { __cspViolations: never[] }).__cspViolations);
  }

  async pwned(): Promise<unknown> {
    return this.page.evaluate(() => (window as unknown as { __pwned: unknown }).__pwned);
  }

  async close(): Promise<void> {
    await this.page.close();
  }
}

/** For a test file: builds the bundle and starts one harness before its tests, closes it after them. */
export function useHarness(): () => Harness {
  let harness: Harness | undefined;
  before(async () => {
    buildBundle();
    harness = await startHarness();
  });
  after(async () => {
    await harness?.close();
  });
  return () => {
    if (!harness) throw new Error('the harness did not start');
    return harness;
  };
}
