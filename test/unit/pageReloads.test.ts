// A chat page that did not load is loaded again, later each time, and after the last try the panel says why it
// is empty (src/webviews/pageReloads.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PAGE_RELOAD_DELAYS_MS, PageReloads } from '../../src/webviews/pageReloads';

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
