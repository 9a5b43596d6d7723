// Actions on a message, in the real webview: Copy takes the message's Markdown source, and the user's own
// words can be put back in the prompt box to edit and send again (a new turn: ACP cannot rewind).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FeedLink } from './feedLink';
import { useHarness } from './harness';
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
});
