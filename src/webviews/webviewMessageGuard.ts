// Validates what a webview posts before the host acts on it: a compromised or buggy webview gets nothing
// it could not get through the UI. Pure (no 'vscode').
import type { WebviewToHostMessage } from '../protocol/webviewMessages';

const MAX_TEXT = 1_000_000;
const MAX_ID = 1_000;

function isString(value: unknown, max = MAX_ID): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= max;
}

function isLine(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 10_000_000;
}

export function parseWebviewMessage(raw: unknown): WebviewToHostMessage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const m = raw as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
      return typeof m.protocolVersion === 'number' ? { type: 'ready', protocolVersion: m.protocolVersion } : undefined;
    case 'resync':
      return { type: 'resync', knownRev: typeof m.knownRev === 'number' ? m.knownRev : -1, reason: isString(m.reason) ? m.reason : 'unknown' };
    case 'prompt':
      return isString(m.sessionId) && isString(m.text, MAX_TEXT) ? { type: 'prompt', sessionId: m.sessionId, text: m.text } : undefined;
    case 'cancel':
      return isString(m.sessionId) ? { type: 'cancel', sessionId: m.sessionId } : undefined;
    case 'answerPermission':
      return isString(m.sessionId) && isString(m.requestId) && (m.optionId === null || isString(m.optionId))
        ? { type: 'answerPermission', sessionId: m.sessionId, requestId: m.requestId, optionId: m.optionId }
        : undefined;
    case 'openFile':
      if (!isString(m.path, 4096)) return undefined;
      return isLine(m.line) ? { type: 'openFile', path: m.path, line: m.line } : { type: 'openFile', path: m.path };
    case 'openDiff':
      return isString(m.sessionId) && isString(m.toolCallId) && isLine(m.index)
        ? { type: 'openDiff', sessionId: m.sessionId, toolCallId: m.toolCallId, index: m.index }
        : undefined;
    case 'openChat':
      return isString(m.sessionId) && (m.where === 'beside' || m.where === 'tab')
        ? { type: 'openChat', sessionId: m.sessionId, where: m.where }
        : undefined;
    case 'openLink':
      return isString(m.url, 8192) ? { type: 'openLink', url: m.url } : undefined;
    case 'copy':
      return typeof m.text === 'string' && m.text.length <= MAX_TEXT ? { type: 'copy', text: m.text } : undefined;
    default:
      return undefined;
  }
}

/** Only web and mail links leave VS Code, and only after the user confirms. */
export function isExternalLink(url: string): boolean {
  try {
    return ['http:', 'https:', 'mailto:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}
