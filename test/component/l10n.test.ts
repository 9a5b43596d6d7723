// The chat in the user's language: the host writes VS Code's bundle for the extension into the page
// (src/webviews/chatHtml.ts), and the webview reads it before its first render. Here a page with a small German
// bundle: translated words show in German, words the bundle lacks stay English, the page's lang is VS Code's
// display language, and the data element breaks neither the CSP nor the page.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FeedLink } from './feedLink';
import { chatPage, useHarness } from './harness';
import { ROOT, parentWithChildren } from './scenes';

const GERMAN = {
  // The scene's root is working and takes no steering: its box queues.
  Queue: 'Einreihen',
  'Queue a message: it is sent when the turn ends': 'Nachricht einreihen: sie geht ab, wenn der Zug endet',
  You: 'Du',
  'Session details': 'Sitzungsdetails',
  // Cannot close the data element: the page must still load and read it.
  '</script><script>document.title = "pwned"</script>': '</script>',
};

const harness = useHarness({ '/chat-de.html': (origin, nonce) => chatPage(origin, nonce, 'dark', { language: 'de', bundle: GERMAN }) });

describe('the chat in the user\'s language', () => {
  test('words the bundle translates show translated, the rest stay English, and <html lang> is the display language', async () => {
    const chat = await harness().openChat({ path: '/chat-de.html' });
    const { page } = chat;
    await FeedLink.showing(chat, parentWithChildren().store, ROOT);
    await page.getByText('Please fix the failing tests').waitFor();

    assert.equal(await page.locator('html').getAttribute('lang'), 'de');
    await page.getByRole('button', { name: 'Einreihen', exact: true }).waitFor();
    assert.equal(await page.getByRole('textbox').getAttribute('placeholder'), GERMAN['Queue a message: it is sent when the turn ends']);
    assert.ok((await page.getByText('Du', { exact: true }).count()) > 0, 'the user\'s messages are headed "Du"');
    await page.getByRole('button', { name: 'Sitzungsdetails', exact: true }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Queue', exact: true }).count(), 0);
    // Not in the bundle: English.
    assert.ok((await page.getByText('Agent', { exact: true }).count()) > 0, 'the agent\'s messages stay "Agent"');

    assert.notEqual(await page.title(), 'pwned');
    assert.deepEqual(chat.pageErrors, []);
    assert.deepEqual(await chat.cspViolations(), []);
    await chat.close();
  });
});
