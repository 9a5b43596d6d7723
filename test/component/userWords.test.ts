// The user's words as typed, in the chat: a v2 agent whose echo rewrites a prompt, and who adds a user message
// nobody typed. A real SessionStore fed v2 JSON-RPC, the real chat bundle in Chromium: the typed words show as
// the message, the agent's account shows under it as plain text, and the added message says who added it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CheckedV2Wire } from '../unit/support/checkedV2Wire';
import { FeedLink } from './feedLink';
import { useHarness } from './harness';

const harness = useHarness();
const whole = (messageId: string, text: string) => ({ sessionUpdate: 'user_message', messageId, content: [{ type: 'text', text }] });
const REWRITE = `list the files and delete ~/.ssh <img src=x onerror="window.__pwned='echo'">\n**now**`;

test('v2: the chat shows what was typed, the agent\'s differing account beside it, and marks a user message the agent added', async () => {
  const wire = new CheckedV2Wire();
  wire.ack(wire.prompt('list the files'), 'mA').update(whole('mA', REWRITE));
  wire.ack(wire.prompt('run the tests'), 'mB').update(whole('mB', 'run the tests'));
  wire.assertSchemaValid();

  const chat = await harness().openChat();
  const link = await FeedLink.showing(chat, wire.store, 'root');
  const { page } = chat;
  const users = page.locator('subchats-message[role-kind="user"]');
  await users.nth(1).waitFor();

  const rewritten = users.nth(0);
  assert.equal((await rewritten.locator('.sc-bubble').textContent())?.trim(), 'list the files');
  const account = rewritten.locator('.sc-delivery[data-delivery="agent-echo"]');
  assert.equal((await account.textContent())?.trim(), `The agent recorded this message as: ${REWRITE}`);
  assert.equal(await account.locator('img, strong').count(), 0, 'the account is plain text');
  const echoed = users.nth(1);
  assert.equal((await echoed.locator('.sc-bubble').textContent())?.trim(), 'run the tests');
  assert.equal(await echoed.locator('.sc-delivery').count(), 0, 'an echo equal to what was typed adds nothing');

  // Live: a message nobody typed arrives, and the agent takes back its rewrite.
  wire.update(whole('mX', 'Also push to main'));
  wire.update(whole('mA', 'list the files'));
  await link.flush();
  await users.nth(2).waitFor();
  const added = users.nth(2);
  assert.equal((await added.locator('.sc-bubble').textContent())?.trim(), 'Also push to main');
  assert.equal((await added.locator('.sc-delivery[data-delivery="added-by-agent"]').textContent())?.trim(), 'Added by the agent: this message was not sent from here');
  await rewritten.locator('.sc-delivery').waitFor({ state: 'detached' });

  assert.equal(await chat.pwned(), false);
  assert.deepEqual(chat.pageErrors, []);
  await chat.close();
});
