// Actions on a message, in the real webview: Copy takes the message's Markdown source, and the user's own
// words can be sent again as they were (Retry) or put back in the prompt box to edit first; either is a new turn
// (ACP cannot rewind), marked as sent again under the new message.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { markResend } from '../../src/protocol/resendMark';
import { FeedLink } from './feedLink';
import { useHarness } from './harness';
import { settledAtEnd } from './settledAtEnd';
import { SceneWire } from './wireScenes';

const harness = useHarness();

describe('message actions', () => {
  test('Copy copies the Markdown; Edit and send again puts the user\'s words in the prompt box', async () => {
    const chat = await harness().openChat();
    const scene = new SceneWire().root('root', 'Actions');
    const endTurn = scene.prompt('root', 'Rename **foo** to `bar`');
    scene.say('root', 'agent', 'Done: renamed in *two* files.', 'a1');
    endTurn('end_turn');
    await FeedLink.showing(chat, scene.store, 'root');
    const { page } = chat;
    const user = page.locator('subchats-message[role-kind="user"]');
    const agent = page.locator('subchats-message[role-kind="agent"]');
    await agent.getByText('renamed in').waitFor();

    await agent.hover();
    await agent.getByRole('button', { name: 'Copy message' }).click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'copy'), { type: 'copy', text: 'Done: renamed in *two* files.' });
    assert.equal(await agent.getByRole('button', { name: 'Edit and send again' }).count(), 0, 'only the user\'s own words');

    await user.hover();
    await user.getByRole('button', { name: 'Edit and send again' }).click();
    const box = page.locator('subchats-prompt-box textarea');
    await page.locator('subchats-prompt-box textarea:focus').waitFor();
    assert.equal(await box.inputValue(), 'Rename **foo** to `bar`');
    await chat.close();
  });

  test('Retry asks the host to send the message again; Edit marks the prompt box, and its send names the message it edits', async () => {
    const chat = await harness().openChat();
    const scene = new SceneWire().root('root', 'Resend');
    scene.prompt('root', 'Count the lines')('end_turn');
    const link = await FeedLink.showing(chat, scene.store, 'root');
    const { page } = chat;
    const original = scene.session('root').entries.find((e) => e.kind === 'message' && e.role === 'user')!;
    const user = page.locator('subchats-message[role-kind="user"]').first();
    await user.getByText('Count the lines').waitFor();

    await user.hover();
    await user.getByRole('button', { name: 'Retry this message' }).click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'retry'), { type: 'retry', sessionId: 'root', entryId: original.id });
    await chat.send({ type: 'requestOutcome', request: 'retry', sessionId: 'root', target: original.id, refused: 'The agent connection ended.' });
    await user.getByRole('alert').getByText('The agent connection ended.').waitFor();

    // What the host sends for a retry comes back through the store, marked under the new message.
    const sent = markResend([{ type: 'text', text: 'Count the lines' }], { how: 'retry', of: { at: original.at, entryId: original.id } });
    scene.clientRequest('session/prompt', { sessionId: 'root', prompt: sent }, {});
    scene.endTurn('root');
    await link.flush();
    const mark = page.locator('subchats-message .sc-delivery[data-delivery="resend"]');
    await mark.waitFor();
    assert.match(await mark.innerText(), /Sent again: your message of \d\d:\d\d:\d\d, as a new turn; the turns after it stay/);

    await user.hover();
    await user.getByRole('button', { name: 'Edit and send again' }).click();
    const editing = page.locator('subchats-prompt-box .sc-editing');
    await editing.waitFor();
    assert.match(await editing.innerText(), /Editing your message of \d\d:\d\d:\d\d/);
    const box = page.locator('subchats-prompt-box textarea');
    await box.fill('Count the lines in src');
    await box.press('Enter');
    const prompt = await chat.waitForPosted((m) => m.type === 'prompt');
    assert.deepEqual(prompt, { type: 'prompt', sessionId: 'root', text: 'Count the lines in src', resendOf: { sessionId: 'root', entryId: original.id } });
    await editing.waitFor({ state: 'detached' });

    // ✕ drops the mark: the words go as a plain new message.
    await user.hover();
    await user.getByRole('button', { name: 'Edit and send again' }).click();
    await page.getByRole('button', { name: 'Send as a new message, not marked as an edit' }).click();
    await editing.waitFor({ state: 'detached' });
    await box.press('Enter');
    const plain = await chat.waitForPosted((m) => m.type === 'prompt' && m.text === 'Count the lines');
    assert.equal('resendOf' in plain, false);
    assert.deepEqual(await chat.cspViolations(), []);
    await chat.close();
  });
  // The chat sits at the end of a long answer: its list holds that answer and the one after it. Reaching the long
  // answer's Copy button from the keyboard scrolls the chat to its top, the list's range shifts by one (the prompt
  // above comes in), and lit's repeat moves the answer's element to make room: the browser dropped the focus there,
  // and Enter went to the page (the earlier-text test timed out so, beside a CPU hog, in CI).
  test('the keyboard reaches the Copy button of a long answer above the end and keeps it while the list moves: Enter copies', async () => {
    const chat = await harness().openChat();
    const scene = new SceneWire().root('root', 'Focus');
    const endTurn = scene.prompt('root', 'Write a long answer');
    scene.say('root', 'agent', Array.from({ length: 400 }, (_, i) => `Paragraph ${i} of a long answer.`).join('\n\n'), 'long');
    scene.say('root', 'agent', 'And a short one after it.', 'short');
    endTurn('end_turn');
    await FeedLink.showing(chat, scene.store, 'root');
    const { page } = chat;
    await page.getByText('And a short one after it.').waitFor();
    await page.getByText('Paragraph 399 of a long answer.').waitFor();
    await settledAtEnd(page);
    const copy = page.locator('subchats-message[role-kind="agent"]').first().getByRole('button', { name: 'Copy message' });
    await copy.focus();
    // Two frames: the scroll to the button, the list's new range and its moves are done.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    assert.equal(await copy.evaluate((button) => button === document.activeElement), true, 'the focus stays on the Copy button');
    await page.keyboard.press('Enter');
    const copied = await chat.waitForPosted((m) => m.type === 'copy');
    assert.ok(copied.type === 'copy' && copied.text.startsWith('Paragraph 0 of a long answer.'), JSON.stringify(copied).slice(0, 200));
    await chat.close();
  });
});
