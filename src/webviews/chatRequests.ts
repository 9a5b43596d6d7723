// What a chat panel does with each message its webview posts: one handler per message type (the table does
// not compile without one), each re-checking the request against the store. Requests the host may refuse
// (ANSWERED_REQUESTS) get an answer posted back, so the chat shows a refusal where the user asked; only when
// the webview cannot take it does a notification say it instead. Free of 'vscode': the panel passes the
// workbench (editor, commands, clipboard, notifications) and the pipe to its webview.
import type { ContentBlock } from '@agentclientprotocol/sdk/unstable';
import {
  answeredRequestKey,
  type EarlierTextMessage,
  type FileSearchResultsMessage,
  type FileSuggestion,
  type PromptAttachment,
  type RequestOutcomeMessage,
  type WebviewToHostMessage,
} from '../protocol/webviewMessages';
import type { MessageEntry, PromptCapabilities } from '../protocol/transcript';
import { markResend } from '../protocol/resendMark';
import { isResendable } from '../presentation/delivery';
import { PromptContentError } from '../host/promptContent';
import { inertUiText } from '../host/uiText';
import { t } from '../presentation';
import type { SessionView } from '../store/model';
import type { SessionItem } from '../store/sessionControls';
import type { SessionStoreReader } from '../store/storeAccess';
import { isSameOrDescendant } from './chatProjection';

/** The connections the panels show (the extension's SubchatsService fits this shape). */
export interface ChatSessionsHost {
  get(connectionId: string): { readonly store: SessionStoreReader } | undefined;
  /** Sends the user's message the way the session's verdict says (prompt, steer, queue, or relay for a subagent). */
  send(connectionId: string, sessionId: string, content: string | readonly ContentBlock[], options?: { readonly queue?: boolean }): Promise<{ readonly turn?: Promise<unknown> }>;
  /** Takes a queued message back before it is sent. */
  unqueue(connectionId: string, sessionId: string, queuedId: string): boolean;
  cancel(connectionId: string, sessionId: string): Promise<void>;
  /** ACP v2: cancel one tool call or agent terminal that grants it. */
  cancelItem(connectionId: string, sessionId: string, item: SessionItem): Promise<void>;
  /** Fires when connections come and go (restored panels attach once theirs appears). */
  readonly onDidChangeRuntimes: (listener: () => void) => { dispose(): void };
}

/** Answers pending permission requests; false when the request is no longer pending. */
export interface PermissionAnswers {
  answer(connectionId: string, requestId: string, optionId: string | null): boolean;
}

/** What VS Code does for a request (the panel implements it; tests fake it). */
export interface ChatWorkbench {
  /** A warning notification. */
  warn(text: string): void;
  searchFiles(query: string): Promise<readonly FileSuggestion[]>;
  /** The message as content blocks the agent opted in to; throws PromptContentError when it cannot be. */
  promptContent(text: string, attachments: readonly PromptAttachment[], capabilities: PromptCapabilities): Promise<ContentBlock[]>;
  runCommand(command: string, ...args: unknown[]): Promise<unknown>;
  openFile(path: string, line: number | undefined, cwd: string | undefined): Promise<void>;
  openDiff(path: string, oldText: string, newText: string): Promise<void>;
  openChat(sessionId: string, beside: boolean): void;
  openLink(url: string): Promise<void>;
  copy(text: string): Promise<void>;
  /** A code block's toolbar (see codeBlockActions). */
  insertAtCursor(code: string): Promise<void>;
  insertIntoTerminal(code: string): Promise<void>;
  applyToFile(path: string, code: string, cwd: string | undefined): Promise<void>;
}

/** The panel's side of the pipe to its webview. */
export interface ChatPipe {
  ready(protocolVersion: number): void;
  /** The page's bundle or stylesheet did not load. */
  pageLoadFailed(asset: string): void;
  resync(): void;
  ack(rev: number): void;
  /** Posts outside the revisioned feed; resolves false when the webview did not take it. */
  post(message: FileSearchResultsMessage | EarlierTextMessage | RequestOutcomeMessage): PromiseLike<boolean>;
}

export interface RequestContext {
  readonly connectionId: string;
  /** The panel's session: requests act on it and its descendants only. */
  readonly rootSessionId: string;
  readonly store: SessionStoreReader | undefined;
  readonly sessions: ChatSessionsHost;
  readonly permissions: PermissionAnswers;
  readonly workbench: ChatWorkbench;
  readonly pipe: ChatPipe;
}

/**
 * How an answered request went. `refused`: why not, as the chat shows it next to the control; `notice`: the
 * same as a notification, for a chat that cannot take the answer. `after`: work that goes on past the answer
 * (a prompt's turn), whose failure is reported like the request's own.
 */
type Outcome = { readonly refused?: undefined; readonly after?: Promise<unknown> } | { readonly refused: string; readonly notice: string };

const DONE: Outcome = {};
const notInChat = () => t('The session is not part of this chat.');

/** A reason is a sentence or two (an agent's error can be long; the webview takes up to 2,000 characters). */
const MAX_REASON = 600;

function refuse(reason: string, notice: string): Outcome {
  return { refused: reason.slice(0, MAX_REASON) || t('Not possible now.'), notice: inertUiText(t('Subchats: {0}', notice), MAX_REASON) };
}

type Message<K extends WebviewToHostMessage['type']> = Extract<WebviewToHostMessage, { readonly type: K }>;
type Handler<K extends WebviewToHostMessage['type']> = (message: Message<K>, context: RequestContext) => Promise<Outcome | void> | Outcome | void;
export type RequestHandlers = { readonly [K in WebviewToHostMessage['type']]: Handler<K> };

/** Sessions a panel may act on: its session and its descendants. */
function sessionInPanel(context: RequestContext, sessionId: string): SessionView | undefined {
  const { store } = context;
  if (!store || !isSameOrDescendant(store, sessionId, context.rootSessionId)) return undefined;
  return store.getSession(sessionId);
}

/** What cannot be done to the session `{0}` (a label, or undefined: this session), one whole sentence per action. */
const CANNOT = {
  prompt: (label?: string) => (label === undefined ? t('cannot prompt this session.') : t('cannot prompt "{0}".', label)),
  cancel: (label?: string) => (label === undefined ? t('cannot cancel this session.') : t('cannot cancel "{0}".', label)),
  openSubagent: (label?: string) => (label === undefined ? t('cannot open the session of this session.') : t('cannot open the session of "{0}".', label)),
} as const;

/** Runs a session action only if the store allows it now; otherwise says why not. */
async function checked(context: RequestContext, sessionId: string, action: keyof typeof CANNOT, run: () => Promise<unknown>): Promise<Outcome> {
  const session = sessionInPanel(context, sessionId);
  const verdict = session && context.store ? context.store.actionsFor(sessionId)[action] : { allowed: false, reason: notInChat() };
  if (!verdict.allowed) return refuse(verdict.reason ?? '', `${CANNOT[action](session?.label)} ${verdict.reason ?? ''}`);
  await run();
  return DONE;
}

/** Cancels one item only if the store allows it now; otherwise says why not. */
async function cancelItem(context: RequestContext, sessionId: string, item: SessionItem): Promise<Outcome> {
  const verdict = sessionInPanel(context, sessionId) && context.store ? context.store.itemActionsFor(sessionId, item).cancel : { allowed: false, reason: notInChat() };
  const what = 'toolCallId' in item ? t('cannot cancel this tool call.') : t('cannot cancel this terminal.');
  if (!verdict.allowed) return refuse(verdict.reason ?? '', `${what} ${verdict.reason ?? ''}`);
  await context.sessions.cancelItem(context.connectionId, sessionId, item);
  return DONE;
}

/**
 * The user's message, where the session's verdict says (the controller decides: prompt, steer, queue, relay).
 * Attachments become content blocks the agent opted in to, or nothing is sent; a refusal says why. An edit of an
 * earlier message carries the mark that says so.
 */
async function sendMessage(context: RequestContext, message: Message<'prompt'>): Promise<Outcome> {
  const refused = sendRefusal(context, message.sessionId);
  if (refused) return refused;
  let content: ContentBlock[] = [{ type: 'text', text: message.text }];
  const attachments = message.attachments ?? [];
  if (attachments.length > 0) {
    try {
      content = await context.workbench.promptContent(message.text, attachments, context.store!.promptCapabilities());
    } catch (error) {
      if (!(error instanceof PromptContentError)) throw error;
      return refuse(t('The message was not sent. {0}', error.message), t('the message was not sent. {0}', error.message));
    }
  }
  const original = message.resendOf && resendableMessage(context, message.resendOf.sessionId, message.resendOf.entryId);
  if (original) content = markResend(content, { how: 'edit', of: { at: original.at, entryId: original.id } }) as ContentBlock[];
  return send(context, message.sessionId, content, message.queue === true);
}

/** *Retry*: the user's message again as it was sent (its words and attachments), marked as sent again. */
async function retryMessage(context: RequestContext, message: Message<'retry'>): Promise<Outcome> {
  const original = resendableMessage(context, message.sessionId, message.entryId);
  if (!original) return refuse(t('This message cannot be sent again from here.'), t('this message cannot be sent again from here.'));
  const refused = sendRefusal(context, message.sessionId);
  if (refused) return refused;
  const blocks = [{ type: 'text', text: original.text }, ...original.attachments] as ContentBlock[];
  return send(context, message.sessionId, markResend(blocks, { how: 'retry', of: { at: original.at, entryId: original.id } }) as ContentBlock[], false);
}

/** Why a message to this session is not sent now (the session's verdict), or undefined when it goes. */
function sendRefusal(context: RequestContext, sessionId: string): Outcome | undefined {
  const session = sessionInPanel(context, sessionId);
  const verdict = session && context.store ? context.store.actionsFor(sessionId).send : { route: 'refuse' as const, reason: notInChat() };
  if (verdict.route !== 'refuse') return undefined;
  return refuse(verdict.reason, `${session ? t('cannot send to "{0}".', session.label) : t('cannot send to this session.')} ${verdict.reason}`);
}

/** A user's message of a session in this chat that may be sent again (the presentation's rule), if there is one. */
function resendableMessage(context: RequestContext, sessionId: string, entryId: string): MessageEntry | undefined {
  const entry = sessionInPanel(context, sessionId)?.entries.find((e) => e.id === entryId);
  return entry?.kind === 'message' && isResendable(entry) ? entry : undefined;
}

async function send(context: RequestContext, sessionId: string, content: ContentBlock[], queue: boolean): Promise<Outcome> {
  const result = await context.sessions.send(context.connectionId, sessionId, content, { queue });
  return { after: Promise.resolve(result.turn) };
}

function answerPermission(context: RequestContext, message: Message<'answerPermission'>): Outcome {
  const entry = sessionInPanel(context, message.sessionId)?.entries.find((e) => e.kind === 'permission' && e.requestId === message.requestId);
  const valid =
    entry?.kind === 'permission' && entry.outcome === 'pending' && (message.optionId === null || entry.options.some((o) => o.optionId === message.optionId));
  if (valid && context.permissions.answer(context.connectionId, message.requestId, message.optionId)) return DONE;
  return refuse(t('This permission request is no longer pending.'), t('this permission request is no longer pending.'));
}

/** Reads what the store keeps on disk; a failed read is said, never thrown into the panel's error path. */
async function readEarlier<T>(read: () => Promise<T | undefined> | undefined): Promise<T | { readonly problem: string } | undefined> {
  try {
    return await read();
  } catch (error) {
    return { problem: t('could not read it back from disk ({0}).', inertUiText(String((error as Error)?.message ?? error), 300)) };
  }
}

export const requestHandlers: RequestHandlers = {
  ready: (message, { pipe }) => pipe.ready(message.protocolVersion),
  pageLoadFailed: (message, { pipe }) => pipe.pageLoadFailed(message.asset),
  resync: (_message, { pipe }) => pipe.resync(),
  ack: (message, { pipe }) => pipe.ack(message.rev),
  prompt: (message, context) => sendMessage(context, message),
  retry: (message, context) => retryMessage(context, message),
  unqueue: (message, context) => {
    if (sessionInPanel(context, message.sessionId)) context.sessions.unqueue(context.connectionId, message.sessionId, message.queuedId);
  },
  searchFiles: async (message, { workbench, pipe }) => {
    void pipe.post({ type: 'fileSearchResults', requestId: message.requestId, items: await workbench.searchFiles(message.query) });
  },
  cancel: (message, context) => checked(context, message.sessionId, 'cancel', () => context.sessions.cancel(context.connectionId, message.sessionId)),
  // The command loads it, opens its chat and reveals its row, as from the tree.
  openSubagentSession: (message, context) =>
    checked(context, message.sessionId, 'openSubagent', () =>
      context.workbench.runCommand('subchats.openSubagentSession', { connectionId: context.connectionId, sessionId: message.sessionId }),
    ),
  cancelToolCall: (message, context) => cancelItem(context, message.sessionId, { toolCallId: message.toolCallId }),
  cancelTerminal: (message, context) => cancelItem(context, message.sessionId, { terminalId: message.terminalId }),
  answerPermission: (message, context) => answerPermission(context, message),
  openFile: (message, context) => context.workbench.openFile(message.path, message.line, context.store?.effectiveCwd(context.rootSessionId) ?? undefined),
  openDiff: (message, context) => {
    const item = sessionInPanel(context, message.sessionId)?.toolCalls[message.toolCallId]?.content[message.index];
    if (item?.type !== 'diff' || typeof item.path !== 'string' || typeof item.newText !== 'string') return;
    return context.workbench.openDiff(item.path, typeof item.oldText === 'string' ? item.oldText : '', item.newText);
  },
  changeSetting: (message, context) => {
    // Roots only (ACP sets modes and options per root session); the command checks the value is advertised.
    const session = sessionInPanel(context, message.sessionId);
    if (!session || session.parentId !== null) return;
    return checked(context, message.sessionId, 'prompt', () =>
      context.workbench.runCommand('subchats.changeModeOrOption', { connectionId: context.connectionId, sessionId: message.sessionId }, message.change),
    );
  },
  openChanges: async (message, context) => {
    if (!sessionInPanel(context, message.sessionId)) return;
    await context.workbench.runCommand('subchats.openChanges', { connectionId: context.connectionId, sessionId: message.sessionId, scope: message.scope });
  },
  openChat: (message, context) => {
    if (context.store?.getSession(message.sessionId)) context.workbench.openChat(message.sessionId, message.where === 'beside');
  },
  openLink: (message, { workbench }) => workbench.openLink(message.url),
  copy: (message, { workbench }) => workbench.copy(message.text),
  copyMessage: async (message, context) => {
    if (!sessionInPanel(context, message.sessionId)) return;
    const text = await readEarlier(() => context.store?.wholeText?.(message.sessionId, message.entryId));
    if (typeof text === 'string') await context.workbench.copy(text);
    else context.workbench.warn(t('Subchats: could not copy the message: {0}', text?.problem ?? t('it is no longer in this chat.')));
  },
  loadEarlier: async (message, context) => {
    const { sessionId, entryId, end } = message;
    // A session gone from the panel's tree (removed meanwhile) is answered too: the note says so, not "Loading…" for good.
    const page = sessionInPanel(context, sessionId)
      ? await readEarlier(() => context.store?.earlierPage?.(sessionId, entryId, end))
      : { problem: notInChat() };
    const answer: EarlierTextMessage =
      page && !('problem' in page)
        ? { type: 'earlierText', sessionId, entryId, end, page }
        : { type: 'earlierText', sessionId, entryId, end, problem: page?.problem ?? t('This part of the message is no longer kept.') };
    void context.pipe.post(answer);
  },
  codeBlock: (message, context) => {
    const { workbench } = context;
    if (message.action === 'insert') return workbench.insertAtCursor(message.code);
    if (message.action === 'terminal') return workbench.insertIntoTerminal(message.code);
    if (message.path === undefined) return;
    return workbench.applyToFile(message.path, message.code, context.store?.effectiveCwd(context.rootSessionId) ?? undefined);
  },
};

/** Runs the message's handler and answers an answered request; a handler's failure rejects (the panel reports it). */
export async function handleRequest(message: WebviewToHostMessage, context: RequestContext, handlers: RequestHandlers = requestHandlers): Promise<void> {
  const handler = handlers[message.type] as Handler<typeof message.type>;
  const outcome = await handler(message as never, context);
  const key = answeredRequestKey(message);
  if (!outcome || !key) return;
  const answer: RequestOutcomeMessage = { type: 'requestOutcome', ...key, ...(outcome.refused !== undefined ? { refused: outcome.refused } : {}) };
  const delivered = context.pipe.post(answer);
  if (outcome.refused === undefined) {
    await outcome.after;
    return;
  }
  const { notice } = outcome;
  delivered.then(
    (taken) => taken || context.workbench.warn(notice),
    () => context.workbench.warn(notice),
  );
}
