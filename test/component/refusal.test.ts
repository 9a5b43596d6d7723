// A request the host refuses shows its reason where the user asked, in real Chromium: under the session bar
// for its Cancel button (and the cancel chord), in the prompt box for Stop and Send, as small alert text (read
// out once, no toast). Asking again clears it; a success answer clears it too.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FeedLink } from './feedLink';
import { useHarness } from './harness';
import { ROOT, runningRoot } from './scenes';
import { SceneWire } from './wireScenes';

const harness = useHarness();
const ENDED = 'The turn has already ended.';

describe('refused requests', () => {
  test('a refused cancel shows its reason where it was asked, until asked again or done', async () => {
    const chat = await harness().openChat();
    await FeedLink.showing(chat, runningRoot('Long turn').store, ROOT);
    const { page } = chat;
    const barNote = page.locator('subchats-session-bar .sc-refusal');
    const boxNote = page.locator('subchats-prompt-box .sc-refusal');

    await page.getByRole('button', { name: 'Cancel this session' }).click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'cancel'), { type: 'cancel', sessionId: ROOT });
    await chat.send({ type: 'requestOutcome', request: 'cancel', sessionId: ROOT, refused: ENDED });
    await barNote.waitFor();
    assert.equal((await barNote.innerText()).trim(), ENDED);
    assert.equal(await barNote.getAttribute('role'), 'alert', 'read out once as it appears');
    assert.equal(await boxNote.count(), 0, 'not shown where the user did not ask');

    // Stop in the prompt box asks again: the bar's refusal goes, and the new one shows in the box.
    await chat.clearPosted();
    await page.locator('subchats-prompt-box .sc-stop').click();
    await chat.waitForPosted((m) => m.type === 'cancel');
    await barNote.waitFor({ state: 'detached' });
    await chat.send({ type: 'requestOutcome', request: 'cancel', sessionId: ROOT, refused: ENDED });
    await boxNote.waitFor();
    assert.equal(await barNote.count(), 0);

    await chat.send({ type: 'requestOutcome', request: 'cancel', sessionId: ROOT });
    await boxNote.waitFor({ state: 'detached' });
    assert.deepEqual(await chat.cspViolations(), []);
    await chat.close();
  });

  test('a refused message shows its reason in the prompt box; another request\'s answer leaves it', async () => {
    const chat = await harness().openChat();
    await FeedLink.showing(chat, new SceneWire().root(ROOT, 'Idle').store, ROOT);
    const { page } = chat;
    const input = page.locator('#sc-prompt-input');
    await input.fill('hello');
    await input.press('Enter');
    await chat.waitForPosted((m) => m.type === 'prompt');
    const reason = 'The agent connection ended.';
    await chat.send({ type: 'requestOutcome', request: 'prompt', sessionId: ROOT, refused: reason });
    const note = page.locator('subchats-prompt-box .sc-refusal');
    await note.waitFor();
    assert.equal((await note.innerText()).trim(), reason);
    await chat.send({ type: 'requestOutcome', request: 'cancel', sessionId: ROOT });
    assert.equal((await note.innerText()).trim(), reason, 'an answer to another request does not clear it');
    await chat.close();
  });
});
