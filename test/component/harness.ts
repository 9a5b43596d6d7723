// Runs the real chat bundle in headless Chromium: builds dist, serves it with the production HTML (same CSP)
// from 127.0.0.1, stubs acquireVsCodeApi, records what the webview posts and any CSP violation.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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

/** Installed before any script of the page: a fake VS Code API that records posts, and a CSP violation log. */
const HOST_STUB = `
window.__posted = [];
window.__cspViolations = [];
window.__pwned = false;
window.__state = undefined;
document.addEventListener('securitypolicyviolation', (e) => {
  window.__cspViolations.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample });
});
window.acquireVsCodeApi = (() => {
  let acquired = false;
  return () => {
    // As in VS Code: one instance per page.
    if (acquired) throw new Error('An instance of the VS Code API has already been acquired');
    acquired = true;
    return {
      postMessage: (m) => window.__posted.push(JSON.parse(JSON.stringify(m))),
      getState: () => window.__state,
      setState: (s) => { window.__state = s; },
    };
  };
})();
`;

/** Extra pages the server can serve (the benchmark's baseline page). */
export type ExtraRoutes = Record<string, (origin: string, nonce: string) => string>;

export interface Harness {
  readonly origin: string;
  readonly browser: Browser;
  /** Opens the chat page in a theme (dark unless said), or another served page that posts `ready`, and waits for `ready`. */
  openChat(options?: { width?: number; height?: number; path?: string; theme?: ThemeName }): Promise<ChatPage>;
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
      await page.goto(`${origin}${options.path ?? `/chat.html?theme=${options.theme ?? 'dark'}`}`);
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
    const theme = url.searchParams.get('theme');
    const route = url.pathname === '/chat.html' ? (o: string, n: string) => chatPage(o, n, isThemeName(theme) ? theme : 'dark') : extraRoutes[url.pathname];
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

/** The production chat HTML with the host stub inserted before the bundle; in English unless `l10n` says otherwise. */
export function chatPage(origin: string, nonce: string, theme: ThemeName = 'dark', l10n?: { readonly language: string; readonly bundle: Readonly<Record<string, string>> }): string {
  const html = buildChatHtml({
    cspSource: origin,
    nonce,
    scriptUri: `${origin}/dist/webview.js`,
    codiconsUri: `${origin}/dist/codicons/codicon.css`,
    title: 'Subchats test',
    language: l10n?.language ?? 'en',
    l10nBundle: l10n?.bundle,
  });
  return withTestHost(html, nonce, theme);
}

/** VS Code's default themes as a webview gets them: captured from real VS Code by scripts/capture-webview-themes.mjs. */
interface CapturedTheme {
  readonly bodyClasses: readonly string[];
  readonly themeKind: string;
  readonly variables: Readonly<Record<string, string>>;
}
const CAPTURED = JSON.parse(readFileSync(join(import.meta.dirname, 'themes', 'webviewThemes.json'), 'utf8')) as { themes: Record<ThemeName, CapturedTheme> };

export const THEME_NAMES = ['light', 'dark', 'high-contrast', 'high-contrast-light'] as const;
export type ThemeName = (typeof THEME_NAMES)[number];

/**
 * What VS Code puts in every webview before the page's own styles (its default styles): inline code in the
 * theme's preformatted-text colours. The chat must undo it inside code blocks.
 */
const VSCODE_DEFAULT_STYLES = `
code { color: var(--vscode-textPreformat-foreground); background-color: var(--vscode-textPreformat-background); padding: 1px 3px; border-radius: 4px; }
pre code { padding: 0; }`;

function isThemeName(name: string | null): name is ThemeName {
  return (THEME_NAMES as readonly (string | null)[]).includes(name);
}

/** A theme's variables and body classes as VS Code sets them (a test that switches themes sets them itself). */
export function capturedTheme(theme: ThemeName): CapturedTheme {
  return CAPTURED.themes[theme];
}

/** Adds a theme's variables and body classes, as VS Code sets them, and the host stub (before any other script) to a page. */
export function withTestHost(html: string, nonce: string, theme: ThemeName = 'dark'): string {
  const { bodyClasses, themeKind, variables } = capturedTheme(theme);
  const css = `html { ${Object.entries(variables).map(([name, value]) => `${name}: ${value};`).join(' ')} }`;
  return html
    // VS Code defines acquireVsCodeApi before any script of the page runs.
    .replace('<head>', `<head>\n<script nonce="${nonce}">${HOST_STUB}</script>\n<style nonce="${nonce}">${VSCODE_DEFAULT_STYLES}</style>`)
    .replace('</head>', `<style nonce="${nonce}">${css}</style>\n</head>`)
    .replace('<body>', `<body class="${bodyClasses.join(' ')}" data-vscode-theme-kind="${themeKind}">`);
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
export function useHarness(extraRoutes: ExtraRoutes = {}): () => Harness {
  let harness: Harness | undefined;
  before(async () => {
    buildBundle();
    harness = await startHarness(extraRoutes);
  });
  after(async () => {
    await harness?.close();
  });
  return () => {
    if (!harness) throw new Error('the harness did not start');
    return harness;
  };
}
