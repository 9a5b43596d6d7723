// The benchmark's baseline: the same host messages appended to the DOM with plain DOM calls (no framework,
// no markdown, no virtualization), under the same CSP. It shows what the Lit app costs on top of raw DOM work.
import { buildChatHtml } from '../../src/webviews/chatHtml';
import { withTestHost } from '../../test/component/harness';

// Runs in the page. Plain JS so it can be inlined with the nonce.
const BASELINE_SCRIPT = `
(() => {
  const api = acquireVsCodeApi();
  const root = document.createElement('div');
  document.body.append(root);
  const entryNodes = new Map();
  const sessionNodes = new Map();
  const toolCalls = new Map();
  const describe = (sessionId, entry) => {
    if (entry.kind === 'message' || entry.kind === 'sessionMessage') return entry.text;
    if (entry.kind === 'toolCall') {
      const call = toolCalls.get(sessionId + '\\u0000' + entry.toolCallId);
      return call ? call.title + ' (' + call.status + ')' : 'tool call';
    }
    if (entry.kind === 'child') return '';
    return entry.kind;
  };
  const sessionNode = (id) => {
    let node = sessionNodes.get(id);
    if (!node) {
      node = document.createElement('div');
      node.className = 'session';
      sessionNodes.set(id, node);
    }
    return node;
  };
  const putEntry = (sessionId, entry) => {
    const key = sessionId + '\\u0000' + entry.id;
    let node = entryNodes.get(key);
    if (!node) {
      node = document.createElement('div');
      node.className = 'entry';
      entryNodes.set(key, node);
      sessionNode(sessionId).append(node);
      if (entry.kind === 'child') node.append(sessionNode(entry.childSessionId));
    }
    if (entry.kind !== 'child') node.textContent = describe(sessionId, entry);
  };
  // Appends add a text node (no re-render of the whole text), as plain DOM would.
  const appendEntry = (sessionId, append) => {
    const node = entryNodes.get(sessionId + '\u0000' + append.entryId);
    if (node) node.append(append.suffix);
  };
  const putSession = (data) => {
    for (const call of Object.values(data.toolCalls)) toolCalls.set(data.header.id + '\\u0000' + call.toolCallId, call);
    for (const entry of data.entries) putEntry(data.header.id, entry);
  };
  window.addEventListener('message', (event) => {
    const message = event.data;
    if (message.type === 'snapshot') {
      root.replaceChildren();
      entryNodes.clear();
      sessionNodes.clear();
      toolCalls.clear();
      for (const data of message.sessions) putSession(data);
      root.append(sessionNode(message.rootSessionId));
    } else if (message.type === 'delta') {
      for (const delta of message.sessions) {
        if (delta.full) putSession(delta.full);
        for (const call of delta.toolCalls || []) toolCalls.set(delta.sessionId + '\\u0000' + call.toolCallId, call);
        for (const item of delta.entries || []) putEntry(delta.sessionId, item.entry);
        for (const append of delta.appends || []) appendEntry(delta.sessionId, append);
      }
    }
    scheduleAck(message.type === 'snapshot' ? message.rev : message.toRev);
  });
  // The same flow-control ack as the app: after the next frame is painted.
  let ackRev;
  const scheduleAck = (rev) => {
    const first = ackRev === undefined;
    ackRev = rev;
    if (!first) return;
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { api.postMessage({ type: 'ack', rev: ackRev }); ackRev = undefined; };
      channel.port2.postMessage(0);
    });
  };
  api.postMessage({ type: 'ready', protocolVersion: 1 });
})();
`;

export function baselinePage(origin: string, nonce: string): string {
  const html = buildChatHtml({
    cspSource: origin,
    nonce,
    scriptUri: `${origin}/dist/none.js`,
    codiconsUri: `${origin}/dist/codicons/codicon.css`,
    title: 'Baseline',
    language: 'en',
  });
  const page = html.replace(/<script type="module"[^>]*><\/script>/, `<script nonce="${nonce}">${BASELINE_SCRIPT}</script>`);
  return withTestHost(page, nonce);
}
