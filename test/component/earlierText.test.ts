// Issue 23 item 4, in the real webview: a long agent message whose head the host keeps on disk shows its last
// part and says how much comes before it; Show earlier text reads the earlier text back page by page through
// the real request handler, until the message is whole; Copy asks the host for the whole message. Opening the chat
// asks for nothing. (Scrolling up to the note asks the same way: test/e2e/history.e2e.test.mjs drives it.)
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { HostToWebviewMessage, WebviewToHostMessage } from '../../src/protocol/webviewMessages';
import { handleRequest, type RequestContext } from '../../src/webviews/chatRequests';
import type { TextVault, VaultRef } from '../../src/store/textSpill';
import { FeedLink } from './feedLink';
import { settledAtEnd } from './settledAtEnd';
import { useHarness, type ChatPage } from './harness';
import { text, Wire } from '../unit/support/storeFixtures';

const harness = useHarness();

class ListVault implements TextVault {
  readonly pages: string[] = [];
  failing = false;
  put(page: string): VaultRef {
    this.pages.push(page);
    return { offset: this.pages.length - 1, bytes: Buffer.byteLength(page) };
  }
  async read(ref: VaultRef): Promise<string> {
    if (this.failing) throw new Error('EIO: the disk went away');
    return this.pages[ref.offset]!;
  }
}

/** The host's side of the chat for these requests: the real handlers, answers posted to the page. */
function hostOf(chat: ChatPage, wire: Wire, copied: string[]): (message: WebviewToHostMessage) => Promise<void> {
  const context = {
    connectionId: 'test',
    rootSessionId: 'R',
    store: wire.store,
    workbench: { copy: async (value: string) => void copied.push(value), warn: (value: string) => void copied.push(`warning: ${value}`) },
    pipe: { post: async (message: HostToWebviewMessage) => (await chat.send(message), true) },
  } as unknown as RequestContext;
  return (message) => handleRequest(message, context);
}

/** Waits until the first agent message's markdown holds `count` numbered lines. */
async function linesDrawn(page: ChatPage['page'], count: number): Promise<void> {
  await page.waitForFunction(
    (wanted) => (document.querySelector('subchats-transcript subchats-message[role-kind="agent"] subchats-markdown')?.textContent?.match(/Line \d{4}/g)?.length ?? 0) >= wanted,
    count,
  );
}

/**
 * Asks for the text before the note with Show earlier text, from the keyboard. A note in view of a chat that
 * does not follow its end asks by itself, and then shows "Loading earlier text…" instead: what was asked is
 * waited for on the messages the page posts, either way.
 */
async function askForEarlier(note: ReturnType<ChatPage['page']['locator']>): Promise<void> {
  const button = note.getByRole('button', { name: 'Show earlier text' });
  if ((await button.count()) > 0) await button.press('Enter', { timeout: 5_000 }).catch(() => undefined);
}

/** Numbered lines of 50 characters: `count` of them, so a lost or repeated line shows. */
function numbered(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `Line ${String(i).padStart(4, '0')} of the long answer, with *some* words.\n\n`);
}

describe('earlier text kept on disk', () => {
  test('Show earlier text reads the head back page by page until the message is whole; Copy takes it whole; opening asks for nothing', async () => {
    const chat = await harness().openChat();
    const vault = new ListVault();
    const wire = new Wire({ now: () => 1000, limits: { maxHeldTextChars: 40_000 }, textVault: vault }).newSession('R');
    const endTurn = wire.prompt('R', 'Write a long answer');
    const lines = numbered(4_000); // 200,000 characters: the tail, and pages before it
    for (const line of lines) wire.update('R', text('agent_message_chunk', line, { messageId: 'long' }));
    wire.update('R', text('agent_message_chunk', 'And a short one after it.', { messageId: 'short' }));
    endTurn('end_turn');
    const stored = wire.session('R').entries.find((e) => e.kind === 'message' && e.messageId === 'long');
    assert.ok(stored?.kind === 'message' && stored.earlier, 'the store moved the head of the long message to the vault');

    await FeedLink.showing(chat, wire.store, 'R');
    const { page } = chat;
    const message = page.locator('subchats-message[role-kind="agent"]').first();
    const note = message.locator('.sc-earlier');
    await page.getByText('And a short one after it.').waitFor();
    assert.match(await note.innerText(), /^0\.2 MB earlier in this message is kept on disk/);
    await message.getByText('Line 3999 of the long answer').waitFor(); // the last words show at once
    // Opening the chat asked for nothing, even once it settled at its end: only scrolling up to the note does.
    await settledAtEnd(page);
    assert.deepEqual((await chat.posted()).filter((m) => m.type === 'loadEarlier'), []);

    const copied: string[] = [];
    const host = hostOf(chat, wire, copied);
    // From the keyboard, which keeps the focus on the button while the chat scrolls to it and its list moves the
    // message's element (messageActions.test.ts); the note then in view asks for the text before it by itself.
    await message.getByRole('button', { name: 'Copy message' }).press('Enter');
    await host(await chat.waitForPosted((m) => m.type === 'copyMessage'));
    assert.equal(copied[0], lines.join(''), 'Copy takes the whole message, read back from the vault');

    // The user asks for the text before, page by page (Show earlier text; scrolling up to the note asks the same
    // way, which the history e2e test drives in real VS Code): each page goes below the note, until none is left.
    let pages = 0;
    for (let end = stored.earlier.chars; end > 0; pages++) {
      await linesDrawn(page, lines.length - Math.ceil(end / lines[0]!.length));
      await askForEarlier(note);
      const asked = await chat.waitForPosted((m) => m.type === 'loadEarlier' && m.end === end);
      assert.deepEqual(asked, { type: 'loadEarlier', sessionId: 'R', entryId: stored.id, end });
      await host(asked);
      const next = await page.waitForFunction(
        (before) => {
          const shown = document.querySelector('subchats-transcript subchats-message[role-kind="agent"] .sc-earlier');
          const chars = Number(shown?.getAttribute('data-earlier-chars') ?? 0);
          return chars < before ? { chars } : false;
        },
        end,
      );
      end = ((await next.jsonValue()) as { chars: number }).chars;
    }
    assert.ok(pages >= 2, `read back in ${pages} pages`);
    await note.waitFor({ state: 'detached' });
    await message.getByText('Line 0000 of the long answer').waitFor();
    await linesDrawn(page, lines.length);
    // textContent: innerText leaves out the groups off screen the browser skips (content-visibility).
    const shown = (await message.locator('subchats-markdown').textContent()) ?? '';
    const numbers = [...shown.matchAll(/Line (\d{4})/g)].map((m) => Number(m[1]));
    assert.deepEqual(numbers, lines.map((_, i) => i), 'every line once, in order');
    assert.deepEqual(chat.pageErrors, []);
    await chat.close();
  });

  test('↑ in the prompt box moves its caret (or recalls the last prompt) and asks for no earlier text; PageUp outside it does', async () => {
    const chat = await harness().openChat();
    const { page } = chat;
    await page.setViewportSize({ width: 900, height: 1400 });
    const wire = new Wire({ now: () => 1000, limits: { maxHeldTextChars: 2_500 }, textVault: new ListVault() }).newSession('R');
    // One paragraph of short lines, held down to its last 2,000 characters: they and the note fit on the screen.
    for (let i = 0; i < 2_000; i++) wire.update('R', text('agent_message_chunk', `word${i} and more\n`));
    await FeedLink.showing(chat, wire.store, 'R');
    const note = page.locator('subchats-message .sc-earlier');
    await note.waitFor();
    // All of it fits on the screen: the chat follows its end with nothing to scroll.
    await page.getByText('word1999').waitFor();
    await page.locator('subchats-transcript.sc-root-transcript[data-following="true"]').waitFor();
    assert.ok(await note.isVisible() && (await note.boundingBox())!.y >= 0, 'the note is on screen while the chat follows its end');
    const box = page.locator('#sc-prompt-input');
    await box.fill('two\nlines');
    await box.press('ArrowUp');
    await box.press('PageUp');
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    assert.deepEqual((await chat.posted()).filter((m) => m.type === 'loadEarlier'), [], 'keys typed in the prompt box ask for nothing');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('PageUp');
    await chat.waitForPosted((m) => m.type === 'loadEarlier');
    await chat.close();
  });

  test('a page that cannot be read back is said on the message, and Show earlier text asks again', async () => {
    const chat = await harness().openChat();
    const vault = new ListVault();
    const wire = new Wire({ now: () => 1000, limits: { maxHeldTextChars: 20_000 }, textVault: vault }).newSession('R');
    for (const line of numbered(1_000)) wire.update('R', text('agent_message_chunk', line));
    await FeedLink.showing(chat, wire.store, 'R');
    const { page } = chat;
    const note = page.locator('subchats-message .sc-earlier');
    await note.waitFor();
    // The chat has drawn the text and followed it to its end: a turn of the wheel now scrolls it.
    await settledAtEnd(page);
    const host = hostOf(chat, wire, []);
    vault.failing = true;
    await note.getByRole('button', { name: 'Show earlier text' }).click();
    await host(await chat.waitForPosted((m) => m.type === 'loadEarlier'));
    await note.getByRole('alert').getByText(/could not read it back from disk \(EIO: the disk went away\)/).waitFor();
    vault.failing = false;
    await chat.clearPosted();
    await note.getByRole('button', { name: 'Show earlier text' }).click();
    await host(await chat.waitForPosted((m) => m.type === 'loadEarlier'));
    await page.locator('subchats-message [role="alert"]').waitFor({ state: 'detached' });
    assert.deepEqual(chat.pageErrors, []);
    await chat.close();
  });
});
