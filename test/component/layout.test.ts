// The chat's layout in real Chromium (a 900 px high panel unless said): a one-line header with details on
// demand that never covers the transcript, the transcript as the panel's only scroller, the prompt box at the
// bottom from the start, completion lists that open upward with the room there is, and a Stop button that
// looks like one.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { FeedLink } from './feedLink';
import { repoRoot, useHarness, type ChatPage } from './harness';
import type { WebviewToHostMessage } from '../../src/protocol/webviewMessages';
import { CHILD_A, ROOT, parentWithChildren } from './scenes';
import { settledAtEnd } from './settledAtEnd';
import { SceneWire } from './wireScenes';

const screenshots = join(repoRoot, 'test-results', 'screenshots');
const harness = useHarness();
before(() => mkdirSync(screenshots, { recursive: true }));

const PANEL = { width: 900, height: 900 };
const TRANSCRIPT = 'subchats-transcript.sc-root-transcript';

/** Twelve commands: more than the old list's two visible rows in an empty chat. */
const COMMANDS = Array.from({ length: 12 }, (_, i) => ({ name: `command${i}`, description: `Command number ${i}` }));

/** The root at work with its children, then `paragraphs` of answer; in a panel of `height` px. */
async function openRunningChat(height = PANEL.height, paragraphs = 0): Promise<ChatPage> {
  const chat = await harness().openChat({ ...PANEL, height });
  const w = parentWithChildren();
  if (paragraphs > 0) w.say(ROOT, 'agent', Array.from({ length: paragraphs }, (_, i) => `Step ${i + 1} of the plan.`).join('\n\n'));
  await FeedLink.showing(chat, w.store, ROOT);
  await chat.page.locator('#sc-prompt-input').waitFor();
  return chat;
}

async function openEmptyChat(): Promise<ChatPage> {
  const chat = await harness().openChat(PANEL);
  const w = new SceneWire().root(ROOT, 'Empty chat');
  w.update(ROOT, { sessionUpdate: 'available_commands_update', availableCommands: COMMANDS });
  await FeedLink.showing(chat, w.store, ROOT);
  await chat.page.locator('#sc-prompt-input').waitFor();
  return chat;
}

/** Where the header, the transcript and the prompt box are, and what is drawn at the transcript's first row. */
/** Where an open completion list is, and how many of its rows can be seen (drawn on top, inside the list). */
async function listRows(list: Locator) {
  await list.waitFor();
  return list.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const prompt = document.querySelector('#sc-prompt-input')!.getBoundingClientRect();
    const seen = [...element.querySelectorAll('[role="option"]')].filter((option) => {
      const rect = option.getBoundingClientRect();
      const drawn = document.elementFromPoint(rect.left + 20, rect.top + rect.height / 2);
      return rect.top >= Math.max(0, box.top) && rect.bottom <= box.bottom && option.contains(drawn);
    });
    return { visible: seen.length, listTop: box.top, listBottom: box.bottom, promptTop: prompt.top };
  });
}

function measure(chat: ChatPage) {
  return chat.page.evaluate((transcriptSelector) => {
    const header = document.querySelector('subchats-app > header')!.getBoundingClientRect();
    const transcriptElement = document.querySelector(transcriptSelector)!;
    const transcript = transcriptElement.getBoundingClientRect();
    const box = document.querySelector('subchats-prompt-box')!.getBoundingClientRect();
    const atFirstRow = document.elementFromPoint(transcript.left + 40, transcript.top + 2);
    const page = document.scrollingElement!;
    return {
      headerTop: header.top,
      headerHeight: header.height,
      headerBottom: header.bottom,
      transcriptTop: transcript.top,
      transcriptBottom: transcript.bottom,
      boxTop: box.top,
      boxBottom: box.bottom,
      viewport: window.innerHeight,
      firstRowIsTranscript: atFirstRow !== null && transcriptElement.contains(atFirstRow),
      pageScrolls: page.scrollHeight > page.clientHeight,
      transcriptScrolls: transcriptElement.scrollHeight > transcriptElement.clientHeight,
    };
  }, TRANSCRIPT);
}

describe('layout', () => {
  test('the header is one line above the transcript, never over it; the transcript is the only scroller', async () => {
    // Long enough that a card can scroll to the top, short enough that the virtualizer renders (and measures)
    // every entry: nothing moves once scrolled.
    const chat = await openRunningChat(600, 12);
    const { page } = chat;
    const at = await measure(chat);
    assert.equal(at.headerTop, 0);
    assert.ok(at.headerHeight <= 40, `the header is one line (${at.headerHeight} px; it was 156)`);
    assert.ok(at.headerBottom <= at.transcriptTop, `header bottom ${at.headerBottom} ≤ transcript top ${at.transcriptTop}`);
    assert.equal(at.firstRowIsTranscript, true, 'the transcript\'s first row shows the transcript, not the header');
    assert.ok(at.transcriptBottom <= at.boxTop, 'the prompt box is below the transcript, not over it');
    assert.equal(at.boxBottom, at.viewport);
    assert.equal(at.pageScrolls, false, 'the page itself does not scroll');
    assert.equal(at.transcriptScrolls, true, 'a long chat scrolls in the transcript');

    // A child card scrolled to the transcript's top: its "Open in new tab" is there to click (it was under the header).
    await settledAtEnd(page);
    const card = page.locator(`subchats-child-card[data-session-id="${CHILD_A}"]`);
    // The card brought to the top as a person would: a turn of the wheel (the chat stops following its end), then
    // a scroll. A real wheel would scroll smoothly, on over the card's own scroll.
    await card.evaluate((element) => {
      element.dispatchEvent(new WheelEvent('wheel', { bubbles: true, deltaY: -1 }));
      element.scrollIntoView({ block: 'start' });
    });
    const open = card.getByRole('button', { name: /^Open .* in a new tab$/ });
    // Entries measured as they come into view move it a little; once it holds still for three frames, test the spot.
    const hit = await open.evaluate(async (button) => {
      let last = '';
      for (let still = 0; still < 3; ) {
        await new Promise((resolve) => requestAnimationFrame(resolve));
        const now = JSON.stringify(button.getBoundingClientRect());
        still = now === last ? still + 1 : 0;
        last = now;
      }
      const rect = button.getBoundingClientRect();
      const transcript = document.querySelector('subchats-transcript.sc-root-transcript')!.getBoundingClientRect();
      const atTop = rect.top - transcript.top < 40;
      return atTop && button.contains(document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2));
    });
    assert.equal(hit, true, 'the card\'s button is at the top of the transcript, and nothing covers it');
    await open.click({ timeout: 2000 });
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'openChat'), { type: 'openChat', sessionId: CHILD_A, where: 'tab' });
    await page.screenshot({ path: join(screenshots, 'layout-header-line.png') });
    await chat.close();
  });

  test('the details show on demand from the keyboard, push the transcript down and are kept', async () => {
    const chat = await openRunningChat();
    const { page } = chat;
    const toggle = page.locator('subchats-session-bar').getByRole('button', { name: 'Session details' });
    const details = page.getByRole('region', { name: 'Session details' });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.equal(await details.count(), 0, 'collapsed, the details are hidden from everyone');
    assert.equal(await page.locator('subchats-timeline').isVisible(), false);

    // Reached with Tab from the top of the page: the header's Cancel, then the toggle.
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'Cancel this session');
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'Session details');
    await page.keyboard.press('Enter');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    await details.getByText(/Timeline · 2 subagents/).waitFor();
    await details.getByRole('button', { name: /Show session outline/ }).waitFor();
    assert.equal(await toggle.getAttribute('aria-controls'), await details.getAttribute('id'));
    const open = await measure(chat);
    assert.ok(open.headerHeight > 40, 'the details take room of their own');
    assert.ok(open.headerBottom <= open.transcriptTop, 'open, the details push the transcript down');
    assert.equal(open.firstRowIsTranscript, true);
    assert.equal(open.boxBottom, open.viewport, 'the prompt box stays at the bottom');
    assert.equal(await page.evaluate(() => (window as unknown as { __state: { detailsOpen?: boolean } }).__state.detailsOpen), true, 'kept across reloads');
    await page.screenshot({ path: join(screenshots, 'layout-header-details.png') });

    await page.keyboard.press(' ');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await details.waitFor({ state: 'hidden' });
    assert.ok((await measure(chat)).headerHeight <= 40);
    await chat.close();
  });

  test('in an empty chat the prompt box is at the bottom and the / list opens upward with room for many rows', async () => {
    const chat = await openEmptyChat();
    const { page } = chat;
    const at = await measure(chat);
    assert.equal(at.boxBottom, at.viewport, 'the prompt box sits at the bottom from the start');
    assert.ok(at.boxTop > at.viewport / 2, `the prompt box is in the panel's lower half (top ${at.boxTop})`);

    await page.locator('#sc-prompt-input').pressSequentially('/');
    const rows = await listRows(page.getByRole('listbox', { name: 'Agent commands' }));
    assert.ok(rows.visible >= 5, `${rows.visible} rows of 12 can be seen (it was 2)`);
    assert.ok(rows.listTop >= 0, 'the list is not cut off at the top of the panel');
    assert.ok(rows.listBottom <= rows.promptTop, 'the list opens above the prompt box');
    await page.screenshot({ path: join(screenshots, 'layout-empty-chat-commands.png') });

    // Keys still drive the list: the last command is chosen after walking up from the first.
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('#sc-prompt-input').inputValue(), '/command11 ');
    await chat.close();
  });

  test('in an empty chat the @ list opens upward too, with room for many files', async () => {
    const chat = await openEmptyChat();
    await chat.page.locator('#sc-prompt-input').pressSequentially('@');
    const search = (await chat.waitForPosted((m) => m.type === 'searchFiles')) as Extract<WebviewToHostMessage, { type: 'searchFiles' }>;
    const items = Array.from({ length: 12 }, (_, i) => ({ path: `src/file${i}.ts`, kind: 'file' as const }));
    await chat.send({ type: 'fileSearchResults', requestId: search.requestId, items });
    const rows = await listRows(chat.page.getByRole('listbox', { name: 'Workspace files' }));
    assert.ok(rows.visible >= 5, `${rows.visible} rows of 12 can be seen`);
    assert.ok(rows.listTop >= 0, 'the list is not cut off at the top of the panel');
    assert.ok(rows.listBottom <= rows.promptTop, 'the list opens above the prompt box');
    await chat.close();
  });

  test('the Stop button shows a stop glyph in VS Code\'s button colours and stops the turn', async () => {
    const chat = await openRunningChat();
    const { page } = chat;
    const stop = page.locator('subchats-prompt-box').getByRole('button', { name: 'Stop', exact: true });
    assert.equal(await stop.locator('.codicon-stop-circle').count(), 1);
    const colours = await stop.evaluate((button) => {
      const probe = document.createElement('span');
      probe.style.setProperty('color', 'var(--vscode-button-secondaryForeground)');
      probe.style.setProperty('background-color', 'var(--vscode-button-secondaryBackground)');
      document.body.append(probe);
      const expected = getComputedStyle(probe);
      const actual = getComputedStyle(button);
      const result = { background: [actual.backgroundColor, expected.backgroundColor], colour: [actual.color, expected.color] };
      probe.remove();
      return result;
    });
    assert.equal(colours.background[0], colours.background[1]);
    assert.equal(colours.colour[0], colours.colour[1]);
    await stop.click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'cancel'), { type: 'cancel', sessionId: ROOT });
    await chat.close();
  });
});
