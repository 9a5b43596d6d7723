// Guards for every message between host and webview, one per message type. The tables are typed by the
// message unions: a new message type does not compile until it has its guard.
//
// Host side: parseWebviewMessage checks what a webview posts before the host acts on it, so a compromised or
// buggy webview gets nothing it could not get through the UI. Webview side: parseHostMessage checks the
// shape of snapshots and deltas; one from another protocol version comes through stripped to its version, so
// the webview can say so instead of misreading it.
import {
  ANSWERED_REQUESTS,
  WEBVIEW_PROTOCOL_VERSION,
  type AnsweredRequest,
  type AddAttachmentMessage,
  type CodeTokenStyle,
  type CodeTokenStyles,
  type DeltaMessage,
  type FileSuggestion,
  type MessageRef,
  type PathAttachment,
  type PromptAttachment,
  type HostToWebviewMessage,
  type SnapshotMessage,
  type WebviewToHostMessage,
} from './webviewMessages';

type Raw = Record<string, unknown>;

/** One guard per member of the union `U`, keyed by its `type`. */
export type GuardTable<U extends { readonly type: string }> = {
  readonly [K in U['type']]: (message: Raw) => Extract<U, { readonly type: K }> | undefined;
};

const MAX_TEXT = 1_000_000;
const MAX_ID = 1_000;

function isRecord(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isString(value: unknown, max = MAX_ID): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= max;
}

function isLine(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 10_000_000;
}

function isRev(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

const MAX_PATH = 4096;
/** Base64 of a pasted image or recording (about 15 MB of media). */
const MAX_MEDIA = 20_000_000;
const MAX_ATTACHMENTS = 50;
const MAX_SUGGESTIONS = 500;
/** A refusal's reason is a sentence or two; more is not shown. */
const MAX_REASON = 2_000;

function isLineRange(m: Raw): boolean {
  return isLine(m.startLine) && isLine(m.endLine) && m.startLine >= 1 && m.endLine >= m.startLine;
}

/** A file, folder or selection attachment: a path and, for a selection, its lines. */
function parsePathAttachment(m: unknown): PathAttachment | undefined {
  if (!isRecord(m) || !isString(m.path, MAX_PATH)) return undefined;
  if (m.kind === 'file' || m.kind === 'folder') return { kind: m.kind, path: m.path };
  if (m.kind === 'selection' && isLineRange(m)) return { kind: 'selection', path: m.path, startLine: m.startLine as number, endLine: m.endLine as number };
  return undefined;
}

function parseAttachment(m: unknown): PromptAttachment | undefined {
  if (isRecord(m) && (m.kind === 'image' || m.kind === 'audio')) {
    const mediaType = new RegExp(`^${m.kind}/[\\w.+-]{1,100}$`);
    const valid = isString(m.name) && typeof m.mimeType === 'string' && mediaType.test(m.mimeType) && isString(m.data, MAX_MEDIA) && /^[A-Za-z0-9+/]*={0,2}$/.test(m.data);
    return valid ? { kind: m.kind, name: m.name as string, mimeType: m.mimeType as string, data: m.data as string } : undefined;
  }
  return parsePathAttachment(m);
}

/** All attachments valid (none is dropped silently: one bad one refuses the message). */
function parseAttachments(value: unknown): PromptAttachment[] | undefined {
  if (!Array.isArray(value) || value.length > MAX_ATTACHMENTS) return undefined;
  const parsed = value.map(parseAttachment);
  return parsed.every((a) => a !== undefined) ? (parsed as PromptAttachment[]) : undefined;
}

function parsePrompt(m: Raw): Extract<WebviewToHostMessage, { readonly type: 'prompt' }> | undefined {
  if (!isString(m.sessionId) || typeof m.text !== 'string' || m.text.length > MAX_TEXT) return undefined;
  if (m.queue !== undefined && typeof m.queue !== 'boolean') return undefined;
  const resendOf = m.resendOf === undefined ? undefined : parseMessageRef(m.resendOf);
  if (m.resendOf !== undefined && !resendOf) return undefined;
  const extra = { ...(m.queue === true ? { queue: true } : {}), ...(resendOf ? { resendOf } : {}) };
  if (m.attachments === undefined) return isString(m.text, MAX_TEXT) ? { type: 'prompt', sessionId: m.sessionId, text: m.text, ...extra } : undefined;
  const attachments = parseAttachments(m.attachments);
  if (!attachments || (attachments.length === 0 && m.text.trim() === '')) return undefined;
  return { type: 'prompt', sessionId: m.sessionId, text: m.text, attachments, ...extra };
}

function parseMessageRef(m: unknown): MessageRef | undefined {
  return isRecord(m) && isString(m.sessionId) && isString(m.entryId) ? { sessionId: m.sessionId, entryId: m.entryId } : undefined;
}

function isSuggestion(value: unknown): value is FileSuggestion {
  return isRecord(value) && isString(value.path, MAX_PATH) && (value.kind === 'file' || value.kind === 'folder') && (value.open === undefined || typeof value.open === 'boolean');
}

export const webviewToHostGuards: GuardTable<WebviewToHostMessage> = {
  ready: (m) => (typeof m.protocolVersion === 'number' ? { type: 'ready', protocolVersion: m.protocolVersion } : undefined),
  pageLoadFailed: (m) => (isString(m.asset, 100) ? { type: 'pageLoadFailed', asset: m.asset } : undefined),
  resync: (m) => ({ type: 'resync', knownRev: typeof m.knownRev === 'number' ? m.knownRev : -1, reason: isString(m.reason) ? m.reason : 'unknown' }),
  ack: (m) => (isRev(m.rev) ? { type: 'ack', rev: m.rev } : undefined),
  prompt: parsePrompt,
  retry: (m) => {
    const ref = parseMessageRef(m);
    return ref ? { type: 'retry', ...ref } : undefined;
  },
  unqueue: (m) => (isString(m.sessionId) && isString(m.queuedId) ? { type: 'unqueue', sessionId: m.sessionId, queuedId: m.queuedId } : undefined),
  searchFiles: (m) => (isCount(m.requestId) && typeof m.query === 'string' && m.query.length <= MAX_PATH ? { type: 'searchFiles', requestId: m.requestId, query: m.query } : undefined),
  cancel: (m) => (isString(m.sessionId) ? { type: 'cancel', sessionId: m.sessionId } : undefined),
  openSubagentSession: (m) => (isString(m.sessionId) ? { type: 'openSubagentSession', sessionId: m.sessionId } : undefined),
  cancelTerminal: (m) => (isString(m.sessionId) && isString(m.terminalId) ? { type: 'cancelTerminal', sessionId: m.sessionId, terminalId: m.terminalId } : undefined),
  cancelToolCall: (m) => (isString(m.sessionId) && isString(m.toolCallId) ? { type: 'cancelToolCall', sessionId: m.sessionId, toolCallId: m.toolCallId } : undefined),
  answerPermission: (m) =>
    isString(m.sessionId) && isString(m.requestId) && (m.optionId === null || isString(m.optionId))
      ? { type: 'answerPermission', sessionId: m.sessionId, requestId: m.requestId, optionId: m.optionId }
      : undefined,
  openFile: (m) => {
    if (!isString(m.path, 4096)) return undefined;
    return isLine(m.line) ? { type: 'openFile', path: m.path, line: m.line } : { type: 'openFile', path: m.path };
  },
  openDiff: (m) =>
    isString(m.sessionId) && isString(m.toolCallId) && isLine(m.index)
      ? { type: 'openDiff', sessionId: m.sessionId, toolCallId: m.toolCallId, index: m.index }
      : undefined,
  openChat: (m) =>
    isString(m.sessionId) && (m.where === 'beside' || m.where === 'tab') ? { type: 'openChat', sessionId: m.sessionId, where: m.where } : undefined,
  openChanges: (m) =>
    isString(m.sessionId) && (m.scope === 'session' || m.scope === 'tree') ? { type: 'openChanges', sessionId: m.sessionId, scope: m.scope } : undefined,
  changeSetting: (m) => {
    if (!isString(m.sessionId) || !isRecord(m.change)) return undefined;
    const change = m.change;
    if (change.kind === 'mode' && isString(change.modeId)) return { type: 'changeSetting', sessionId: m.sessionId, change: { kind: 'mode', modeId: change.modeId } };
    if (change.kind === 'option' && isString(change.configId) && (isString(change.value) || typeof change.value === 'boolean')) {
      return { type: 'changeSetting', sessionId: m.sessionId, change: { kind: 'option', configId: change.configId, value: change.value } };
    }
    return undefined;
  },
  openLink: (m) => (isString(m.url, 8192) ? { type: 'openLink', url: m.url } : undefined),
  copy: (m) => (typeof m.text === 'string' && m.text.length <= MAX_TEXT ? { type: 'copy', text: m.text } : undefined),
  copyMessage: (m) => (isString(m.sessionId) && isString(m.entryId) ? { type: 'copyMessage', sessionId: m.sessionId, entryId: m.entryId } : undefined),
  loadEarlier: (m) =>
    isString(m.sessionId) && isString(m.entryId) && isCount(m.end) ? { type: 'loadEarlier', sessionId: m.sessionId, entryId: m.entryId, end: m.end } : undefined,
  codeBlock: (m) => {
    if (typeof m.code !== 'string' || m.code.length > MAX_TEXT) return undefined;
    if (m.action === 'insert' || m.action === 'terminal') return { type: 'codeBlock', action: m.action, code: m.code };
    return m.action === 'apply' && isString(m.path, MAX_PATH) ? { type: 'codeBlock', action: 'apply', code: m.code, path: m.path } : undefined;
  },
};

/** Every session entry of a snapshot or delta has the parts the webview indexes by. */
function isSessionData(value: unknown): boolean {
  return isRecord(value) && isRecord(value.header) && typeof value.header.id === 'string' && Array.isArray(value.entries) && isRecord(value.toolCalls);
}

const optionalArray = (value: unknown): boolean => value === undefined || Array.isArray(value);


function isTextAppend(value: unknown): value is Raw {
  return isRecord(value) && isCount(value.offset) && typeof value.suffix === 'string';
}

/** A list of appends, each with the keys it is applied by (`keys` are strings, `indexes` integers). */
function appendList(value: unknown, keys: readonly string[], indexes: readonly string[]): boolean {
  if (value === undefined) return true;
  return Array.isArray(value) && value.every((a) => isTextAppend(a) && keys.every((k) => typeof a[k] === 'string') && indexes.every((k) => isCount(a[k])));
}

function isSessionDelta(value: unknown): boolean {
  if (!isRecord(value) || typeof value.sessionId !== 'string') return false;
  if (value.full !== undefined && !isSessionData(value.full)) return false;
  if (value.header !== undefined && !(isRecord(value.header) && (value.header.id === undefined || value.header.id === value.sessionId))) return false;
  if (value.entries !== undefined && !Array.isArray(value.entries)) return false;
  if (!appendList(value.appends, ['entryId'], ['index'])) return false;
  if (!appendList(value.toolCallAppends, ['toolCallId'], ['contentIndex'])) return false;
  return optionalArray(value.toolCalls);
}

/** Workspace folders (name and path) and an optional home folder, all strings. */
function isWorkspaceRoots(value: unknown): boolean {
  return (
    isRecord(value) &&
    Array.isArray(value.folders) &&
    value.folders.every((f: unknown) => isRecord(f) && typeof f.name === 'string' && typeof f.path === 'string') &&
    (value.home === undefined || typeof value.home === 'string')
  );
}

/** Only the version survives of a message from another protocol version (nothing else can be trusted). */
function otherVersion(m: Raw): number | undefined {
  if (m.protocolVersion === WEBVIEW_PROTOCOL_VERSION) return undefined;
  return typeof m.protocolVersion === 'number' ? m.protocolVersion : -1;
}

export const hostToWebviewGuards: GuardTable<HostToWebviewMessage> = {
  focusPrompt: (m) => (m.protocolVersion === WEBVIEW_PROTOCOL_VERSION ? { type: 'focusPrompt', protocolVersion: WEBVIEW_PROTOCOL_VERSION } : undefined),
  snapshot: (m) => {
    const other = otherVersion(m);
    if (other !== undefined) {
      return { type: 'snapshot', protocolVersion: other, rootSessionId: typeof m.rootSessionId === 'string' ? m.rootSessionId : '', rev: isRev(m.rev) ? m.rev : 0, sessions: [], ancestors: [], terminals: [] };
    }
    const valid =
      typeof m.rootSessionId === 'string' &&
      isRev(m.rev) &&
      Array.isArray(m.sessions) &&
      m.sessions.every(isSessionData) &&
      Array.isArray(m.ancestors) &&
      Array.isArray(m.terminals) &&
      (m.unavailableReason === undefined || typeof m.unavailableReason === 'string') &&
      (m.workspace === undefined || isWorkspaceRoots(m.workspace));
    return valid ? (m as unknown as SnapshotMessage) : undefined;
  },
  delta: (m) => {
    const other = otherVersion(m);
    if (other !== undefined) return { type: 'delta', protocolVersion: other, fromRev: 0, toRev: 0, sessions: [] };
    const valid =
      isRev(m.fromRev) &&
      isRev(m.toRev) &&
      Array.isArray(m.sessions) &&
      m.sessions.every(isSessionDelta) &&
      optionalArray(m.removedSessionIds) &&
      optionalArray(m.ancestors) &&
      optionalArray(m.terminals) &&
      appendList(m.terminalAppends, ['terminalId'], []);
    return valid ? (m as unknown as DeltaMessage) : undefined;
  },
  fileSearchResults: (m) =>
    isCount(m.requestId) && Array.isArray(m.items) && m.items.length <= MAX_SUGGESTIONS && m.items.every(isSuggestion)
      ? { type: 'fileSearchResults', requestId: m.requestId, items: m.items }
      : undefined,
  earlierText: (m) => {
    if (!isString(m.sessionId) || !isString(m.entryId) || !isCount(m.end)) return undefined;
    const head = { type: 'earlierText', sessionId: m.sessionId, entryId: m.entryId, end: m.end } as const;
    if (isString(m.problem, MAX_REASON)) return { ...head, problem: m.problem };
    const page = isRecord(m.page) ? m.page : undefined;
    if (!page || !isCount(page.start) || !isCount(page.bytesBefore) || typeof page.text !== 'string' || page.start + page.text.length !== m.end) return undefined;
    return { ...head, page: { start: page.start, text: page.text, bytesBefore: page.bytesBefore } };
  },
  addAttachment: (m): AddAttachmentMessage | undefined => {
    const attachment = parsePathAttachment(m.attachment);
    return attachment ? { type: 'addAttachment', attachment } : undefined;
  },
  tokenColors: (m) => {
    if (m.tokens === null) return { type: 'tokenColors', tokens: null };
    const tokens = parseTokenStyles(m.tokens);
    return tokens ? { type: 'tokenColors', tokens } : undefined;
  },
  requestOutcome: (m) => {
    if (!ANSWERED_REQUESTS.includes(m.request as AnsweredRequest) || !isString(m.sessionId)) return undefined;
    if ((m.target !== undefined && !isString(m.target)) || (m.refused !== undefined && !isString(m.refused, MAX_REASON))) return undefined;
    return {
      type: 'requestOutcome',
      request: m.request as AnsweredRequest,
      sessionId: m.sessionId,
      ...(m.target !== undefined ? { target: m.target } : {}),
      ...(m.refused !== undefined ? { refused: m.refused } : {}),
    };
  },
};

const TOKEN_COLOR = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const TOKEN_FONT_STYLE = /^(?:(?:italic|bold|underline|strikethrough)(?: (?:italic|bold|underline|strikethrough))*)?$/;
const TOKEN_SCOPE = /^[a-z][a-z_-]{0,39}(?:\.[a-z][a-z_-]{0,39}){0,3}$/;
const MAX_TOKEN_KINDS = 200;

/** Token styles become CSS in the webview: only colours and font-style words pass, by scope-like names. */
function parseTokenStyles(value: unknown): CodeTokenStyles | undefined {
  if (!isRecord(value) || Object.keys(value).length > MAX_TOKEN_KINDS) return undefined;
  const styles: Record<string, CodeTokenStyle> = {};
  for (const [scope, style] of Object.entries(value)) {
    if (!TOKEN_SCOPE.test(scope) || !isRecord(style)) return undefined;
    if (style.color !== null && !(typeof style.color === 'string' && TOKEN_COLOR.test(style.color))) return undefined;
    if (style.fontStyle !== undefined && !(typeof style.fontStyle === 'string' && TOKEN_FONT_STYLE.test(style.fontStyle))) return undefined;
    styles[scope] = { color: style.color, ...(style.fontStyle !== undefined ? { fontStyle: style.fontStyle } : {}) };
  }
  return styles;
}

function parseWith<U extends { readonly type: string }>(table: GuardTable<U>, raw: unknown): U | undefined {
  if (!isRecord(raw) || typeof raw.type !== 'string' || !Object.hasOwn(table, raw.type)) return undefined;
  const guard = table[raw.type as U['type']] as (message: Raw) => U | undefined;
  return guard(raw);
}

/** A webview's message as the host may act on it, or undefined when it is not one. */
export function parseWebviewMessage(raw: unknown): WebviewToHostMessage | undefined {
  return parseWith(webviewToHostGuards, raw);
}

/** A host message as the webview may apply it, or undefined when it is not one. */
export function parseHostMessage(raw: unknown): HostToWebviewMessage | undefined {
  return parseWith(hostToWebviewGuards, raw);
}
