// The chat's handshake with the host: `ready` is posted again until a snapshot arrives (a reloaded or restored
// webview may post it before the host can answer, or the answer may be lost), and a chat that keeps waiting
// says so and offers Retry instead of spinning silently.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FeedLink } from './feedLink';
import { useHarness } from './harness';
import { ROOT, parentWithChildren } from './scenes';

const harness = useHarness();

describe('chat handshake', () => {
  test('the host ignores the first ready: the webview posts ready again and renders the snapshot it then gets', async () => {
    const chat = await harness().openChat();
    const { page } = chat;
    // openChat saw the first `ready`; the host "misses" it and answers nothing.
    await chat.clearPosted();
    const started = Date.now();
    const again = await chat.waitForPosted((m) => m.type === 'ready');
    assert.equal(again.type, 'ready');
    assert.ok(Date.now() - started < 2_500, `ready was posted again after ${Date.now() - started} ms`);

    await FeedLink.showing(chat, parentWithChildren().store, ROOT);
    await page.getByText('Please fix the failing tests').waitFor();
    assert.equal(await page.getByText('Loading chat…').count(), 0);

    // Once the snapshot is there the webview stops asking.
    await chat.clearPosted();
    await page.waitForTimeout(2_500);
    assert.deepEqual((await chat.posted()).filter((m) => m.type === 'ready'), []);
    assert.deepEqual(chat.pageErrors, []);
    assert.deepEqual(await chat.cspViolations(), []);
    await chat.close();
  });

  test('no answer for a few seconds: "Still waiting for Subchats…" with a Retry button that asks again', async () => {
    const chat = await harness().openChat();
    const { page } = chat;
    const waiting = page.getByRole('status').filter({ hasText: 'Still waiting for Subchats…' });
    await waiting.waitFor({ timeout: 8_000 });
    const retry = page.getByRole('button', { name: 'Retry', exact: true });
    await chat.clearPosted();
    await retry.click();
    assert.equal((await chat.waitForPosted((m) => m.type === 'ready')).type, 'ready');

    await FeedLink.showing(chat, parentWithChildren().store, ROOT);
    await page.getByText('Please fix the failing tests').waitFor();
    assert.equal(await waiting.count(), 0, 'the waiting notice goes once the chat shows');
    assert.equal(await retry.count(), 0);
    assert.deepEqual(chat.pageErrors, []);
    assert.deepEqual(await chat.cspViolations(), []);
    await chat.close();
  });
});
