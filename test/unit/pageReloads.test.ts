// A chat page that did not load is loaded again, later each time, and after the last try the panel says why it
// is empty (src/webviews/pageReloads.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_PANEL_REPLACEMENTS, PAGE_RELOAD_DELAYS_MS, PageReloads, STALLED_PAGE_MS, StalledPages } from '../../src/webviews/pageReloads';

function reloads() {
  const events: string[] = [];
  const subject = new PageReloads({ reload: () => events.push('reload'), giveUp: (asset) => events.push(`giveUp ${asset}`) });
  return { subject, events };
}

test('each failure loads the page again after a longer wait; one failure more than there are waits gives up', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { subject, events } = reloads();
  for (const delay of PAGE_RELOAD_DELAYS_MS) {
    subject.failed('webview.js');
    t.mock.timers.tick(delay - 1);
    assert.equal(events.filter((e) => e === 'reload').length, PAGE_RELOAD_DELAYS_MS.indexOf(delay), `not before ${delay} ms`);
    t.mock.timers.tick(1);
    assert.equal(events.at(-1), 'reload');
  }
  subject.failed('webview.js');
  assert.equal(events.at(-1), 'giveUp webview.js');
  assert.equal(events.length, PAGE_RELOAD_DELAYS_MS.length + 1);
});

test("a page's two failures (script and stylesheet) make one reload; a disposed panel reloads nothing", (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { subject, events } = reloads();
  subject.failed('codicon.css');
  subject.failed('webview.js');
  t.mock.timers.tick(PAGE_RELOAD_DELAYS_MS[0] ?? 0);
  assert.deepEqual(events, ['reload']);
  subject.failed('webview.js');
  subject.dispose();
  t.mock.timers.tick(60_000);
  assert.deepEqual(events, ['reload']);
});

function stalled() {
  const events: string[] = [];
  const subject = new StalledPages({ replace: () => events.push('replace') });
  return { subject, events };
}

test('a shown page that does not say ready in time gets a new panel; at most a few times', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { subject, events } = stalled();
  subject.expectReady();
  t.mock.timers.tick(STALLED_PAGE_MS - 1);
  assert.deepEqual(events, [], 'a slow page is not replaced');
  t.mock.timers.tick(1);
  assert.deepEqual(events, ['replace']);
  for (let i = 0; i < MAX_PANEL_REPLACEMENTS + 2; i++) {
    subject.expectReady();
    t.mock.timers.tick(STALLED_PAGE_MS);
  }
  assert.equal(events.length, MAX_PANEL_REPLACEMENTS);
});

test('a page that said ready, or a panel hidden or closed, is not replaced; expecting twice waits once', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { subject, events } = stalled();
  subject.expectReady();
  t.mock.timers.tick(STALLED_PAGE_MS / 2);
  subject.expectReady();
  t.mock.timers.tick(STALLED_PAGE_MS / 2);
  assert.deepEqual(events, ['replace'], 'the second expectation does not restart the wait');
  subject.expectReady();
  subject.settled();
  t.mock.timers.tick(STALLED_PAGE_MS * 2);
  subject.expectReady();
  subject.dispose();
  t.mock.timers.tick(STALLED_PAGE_MS * 2);
  assert.deepEqual(events, ['replace']);
});

test("a replacing panel's watch goes on counting: the chat is not replaced without end", (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const counts: number[] = [];
  new StalledPages({ replace: (count) => counts.push(count), replacements: MAX_PANEL_REPLACEMENTS - 1 }).expectReady();
  t.mock.timers.tick(STALLED_PAGE_MS);
  assert.deepEqual(counts, [MAX_PANEL_REPLACEMENTS]);
  new StalledPages({ replace: (count) => counts.push(count), replacements: MAX_PANEL_REPLACEMENTS }).expectReady();
  t.mock.timers.tick(STALLED_PAGE_MS);
  assert.deepEqual(counts, [MAX_PANEL_REPLACEMENTS]);
});

test('a page that ran starts the count over: a chat whose panel was replaced before is replaced again when a later page stalls', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const counts: number[] = [];
  // The chat's panel was replaced as often as it may be; its page then ran (said ready).
  const subject = new StalledPages({ replace: (count) => counts.push(count), replacements: MAX_PANEL_REPLACEMENTS });
  subject.ran();
  // Much later its page stalls (shown again after Reload Webviews): it gets a new panel, counted from one.
  subject.expectReady();
  t.mock.timers.tick(STALLED_PAGE_MS);
  assert.deepEqual(counts, [1]);
  // Hidden is not ran: a panel hidden before its page ran keeps its count.
  const hidden = new StalledPages({ replace: (count) => counts.push(count), replacements: MAX_PANEL_REPLACEMENTS });
  hidden.settled();
  hidden.expectReady();
  t.mock.timers.tick(STALLED_PAGE_MS);
  assert.deepEqual(counts, [1]);
});
