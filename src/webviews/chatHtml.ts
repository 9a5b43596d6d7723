// The chat webview's HTML: a strict CSP (scripts only with the nonce, no inline styles), the codicon
// stylesheet, the translations and the bundle, and the page a chat shows when those never load. Pure, so
// tests can serve exactly what VS Code gets.
import { L10N_ELEMENT_ID, type L10nBundle } from '../presentation/l10n';
import { PAGE_LOAD_FAILED } from '../protocol/webviewMessages';

export interface ChatHtmlOptions {
  /** `webview.cspSource`. */
  readonly cspSource: string;
  readonly nonce: string;
  /** Webview URI of dist/webview.js. */
  readonly scriptUri: string;
  /** Webview URI of dist/codicons/codicon.css. */
  readonly codiconsUri: string;
  readonly title: string;
  /** VS Code's display language (`vscode.env.language`), the page's `lang`. */
  readonly language: string;
  /** `vscode.l10n.bundle`: the chat's words in that language; none means English. */
  readonly l10nBundle?: L10nBundle | undefined;
}

export function createNonce(): string {
  const bytes = new Uint8Array(24);
  globalThis.crypto.getRandomValues(bytes);
  return Buffer.from(bytes).toString('base64url');
}

function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
  ].join('; ');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The bundle as the text of a JSON data block. `<` is written as `\u003c`, so no message can close the element
 * (`</script>`) or open a comment; JSON.parse reads the same string back.
 */
function bundleJson(bundle: L10nBundle): string {
  return JSON.stringify(bundle).replace(/</g, '\\u003c');
}

/**
 * Runs first: tells the host when the bundle or the stylesheet (`data-sc-asset`) fails to load, so the panel can
 * load the page again. In code-server and VS Code for the Web every webview has the same origin, and a service
 * worker registered for another webview can take a new page's requests, which then fail: a blank chat. It
 * also makes `acquireVsCodeApi` answer every call with the page's one API (VS Code allows a single call), so
 * it and the bundle can both post.
 */
const LOAD_GUARD = `(() => {
  const acquire = window.acquireVsCodeApi;
  let api;
  window.acquireVsCodeApi = () => (api ??= acquire());
  window.addEventListener('error', (event) => {
    const asset = event.target instanceof Element ? event.target.getAttribute('data-sc-asset') : null;
    if (asset) window.acquireVsCodeApi().postMessage({ type: '${PAGE_LOAD_FAILED}', asset });
  }, true);
})();`;

export function buildChatHtml(options: ChatHtmlOptions): string {
  const nonce = escapeHtml(options.nonce);
  return `<!DOCTYPE html>
<html lang="${escapeHtml(options.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(options.cspSource, options.nonce))}">
<script nonce="${nonce}">${LOAD_GUARD}</script>
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" id="vscode-codicon-stylesheet" data-sc-asset="codicon.css" href="${escapeHtml(options.codiconsUri)}" nonce="${nonce}">
<title>${escapeHtml(options.title)}</title>
</head>
<body>
${options.l10nBundle ? `<script type="application/json" id="${L10N_ELEMENT_ID}" nonce="${nonce}">${bundleJson(options.l10nBundle)}</script>\n` : ''}<script type="module" nonce="${nonce}" data-sc-asset="webview.js" src="${escapeHtml(options.scriptUri)}"></script>
</body>
</html>
`;
}

export interface ChatLoadFailedHtmlOptions {
  readonly title: string;
  readonly language: string;
  /** Why the chat is empty and what to do, in the user's language. */
  readonly message: string;
}

/** What a panel shows once its page failed to load too often: plain text, no script. */
export function buildChatLoadFailedHtml(options: ChatLoadFailedHtmlOptions): string {
  return `<!DOCTYPE html>
<html lang="${escapeHtml(options.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'">
<title>${escapeHtml(options.title)}</title>
</head>
<body>
<p role="alert">${escapeHtml(options.message)}</p>
</body>
</html>
`;
}
