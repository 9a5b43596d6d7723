// What every view that offers an action shows for one session, read from the real code (tree item, palette
// filters, API snapshot, and the chat bundle in Chromium), next to what the controller's verdict says it must
// show. The controls matrix (controls.test.ts) compares the two for every state it builds.
import { PALETTE_FILTERS, type PaletteTarget } from '../../src/commands/paletteFilters';
import type { MessageRoute, SessionActions, SessionView } from '../../src/store/model';
import { toReplaySnapshot } from '../../src/store/replayReport';
import type { SessionStore } from '../../src/store/sessionStore';
import { sessionItemOf } from '../../src/views/sessionTreeModel';
import type { ChatPage } from './harness';

/** The webview's part: the session's own chat (header and prompt box) and its card in the parent's chat. */
export interface ChatShows {
  readonly headerStop: boolean;
  /** The header's mode and option pickers: absent, all enabled or all disabled (`mixed` is always wrong). */
  readonly settings: 'none' | 'enabled' | 'disabled' | 'mixed';
  readonly submit: string;
  readonly textareaDisabled: boolean;
  readonly promptStop: boolean;
  readonly queueButton: boolean;
}

export interface CardShows {
  readonly cancel: boolean;
  readonly openSubagent: boolean;
}

export interface HostShows {
  readonly tree: Readonly<Record<'canCancel' | 'canPrompt' | 'canClose' | 'canOpenSubagent' | 'canMessage' | 'canCancelChildren' | 'busy', boolean>>;
  readonly palette: Readonly<Record<keyof typeof PALETTE_ACTIONS, boolean>>;
  readonly apiCanCancel: boolean;
}

/** What the submit button says for each route (webview/components/subchats-prompt-box.ts SUBMIT). */
const SUBMIT_LABEL: Readonly<Record<MessageRoute, string>> = { prompt: 'Send', steer: 'Steer', queue: 'Queue', relay: 'Send to parent', refuse: 'Send' };

/** The palette commands that act on one session, each with the verdict its picker must follow. */
const PALETTE_ACTIONS = {
  'subchats.sendPrompt': (a: SessionActions) => a.prompt.allowed,
  'subchats.cancel': (a: SessionActions) => a.cancel.allowed,
  'subchats.closeSession': (a: SessionActions) => a.close.allowed,
  'subchats.changeModeOrOption': (a: SessionActions) => a.changeSetting.allowed,
  'subchats.openSubagentSession': (a: SessionActions) => a.openSubagent.allowed,
  'subchats.messageChild': (a: SessionActions) => a.message.allowed,
  'subchats.cancelAllChildren': (a: SessionActions) => a.cancelChildren.allowed,
} as const;

/** A connection around the store, live exactly while the store is connected (as AgentRuntime is). */
export function runtimeOf(store: SessionStore) {
  return { id: 'c1', agent: { id: 'demo', name: 'Demo', command: 'demo' }, live: store.isConnected, status: store.isConnected ? ('ready' as const) : ('exited' as const), store };
}

export function hostShows(store: SessionStore, sessionId: string): HostShows {
  const runtime = runtimeOf(store);
  const flags = new Set(sessionItemOf(runtime, sessionId, 1000)!.contextValue.split(' '));
  const target: PaletteTarget = { runtime, session: store.getSession(sessionId)! };
  return {
    tree: { canCancel: flags.has('canCancel'), canPrompt: flags.has('canPrompt'), canClose: flags.has('canClose'), canOpenSubagent: flags.has('canOpenSubagent'), canMessage: flags.has('canMessage'), canCancelChildren: flags.has('canCancelChildren'), busy: flags.has('busy') },
    palette: mapKeys(PALETTE_ACTIONS, (command) => PALETTE_FILTERS[command](target)),
    apiCanCancel: toReplaySnapshot(store).sessions.find((s) => s.id === sessionId)!.canCancel,
  };
}

/** The host views as the verdict says they must be. */
export function hostExpected(a: SessionActions): HostShows {
  return {
    tree: { canCancel: a.cancel.allowed, canPrompt: a.prompt.allowed, canClose: a.close.allowed, canOpenSubagent: a.openSubagent.allowed, canMessage: a.message.allowed, canCancelChildren: a.cancelChildren.allowed, busy: a.busy },
    palette: mapKeys(PALETTE_ACTIONS, (command) => PALETTE_ACTIONS[command](a)),
    apiCanCancel: a.cancel.allowed,
  };
}

/** The chat as the verdict says it must be. Settings show on a root that is not closed (chatFeed.ts sessionHeader). */
export function chatExpected(a: SessionActions, session: SessionView): ChatShows {
  return {
    headerStop: a.cancel.allowed,
    settings: session.parentId !== null || session.closed ? 'none' : a.changeSetting.allowed ? 'enabled' : 'disabled',
    submit: SUBMIT_LABEL[a.send.route],
    textareaDisabled: a.send.route === 'refuse',
    promptStop: a.cancel.allowed,
    queueButton: a.send.route === 'steer' && a.queue.allowed,
  };
}

export function cardExpected(a: SessionActions): CardShows {
  return { cancel: a.cancel.allowed, openSubagent: a.openSubagent.allowed };
}

/** Reads the session's own chat once its header and prompt box have rendered. */
export async function chatShows(chat: ChatPage): Promise<ChatShows> {
  await chat.page.locator('subchats-prompt-box button[type="submit"]').waitFor();
  await chat.page.locator('subchats-session-bar .sc-state').waitFor();
  return chat.page.evaluate(() => {
    const bar = document.querySelector('subchats-session-bar')!;
    const box = document.querySelector('subchats-prompt-box')!;
    // The root's pickers sit by the prompt box's buttons, as in VS Code's chat.
    const pickers = [...box.querySelectorAll<HTMLInputElement | HTMLSelectElement>('subchats-session-settings select, subchats-session-settings input')];
    const secondary = [...box.querySelectorAll<HTMLButtonElement>('button.sc-button.secondary')];
    return {
      headerStop: bar.querySelector('button[aria-label="Cancel this session"]') !== null,
      settings: pickers.length === 0 ? 'none' : pickers.every((p) => p.disabled) ? 'disabled' : pickers.every((p) => !p.disabled) ? 'enabled' : 'mixed',
      submit: box.querySelector('button[type="submit"]')!.textContent!.trim(),
      textareaDisabled: box.querySelector('textarea')!.disabled,
      promptStop: box.querySelector('button.sc-stop') !== null,
      queueButton: secondary.some((b) => b.textContent!.trim() === 'Queue'),
    };
  });
}

/** Reads a child's card in its parent's chat. */
export async function cardShows(parentChat: ChatPage, childId: string): Promise<CardShows> {
  const card = parentChat.page.locator(`subchats-child-card[data-session-id="${childId}"]`);
  await card.locator('.sc-card-head').waitFor();
  return {
    cancel: (await card.getByRole('button', { name: /^Cancel subagent / }).count()) > 0,
    openSubagent: (await card.getByRole('button', { name: /^Open the session of / }).count()) > 0,
  };
}

function mapKeys<K extends string, V>(keys: Readonly<Record<K, unknown>>, value: (key: K) => V): Record<K, V> {
  return Object.fromEntries(Object.keys(keys).map((key) => [key, value(key as K)])) as Record<K, V>;
}
