// Reported: "For a subagent waiting on the user, with capabilities.cancel granted, the tree row and the child's
// card offer Cancel; the child's own chat offers none." The recorded Claude trace, replayed into a real store up
// to the moment its subagent (granted capabilities.cancel) waits on a permission: every view offers Cancel,
// and the child's own chat posts it for the child.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SessionView } from '../../src/store/model';
import type { SessionStore } from '../../src/store/sessionStore';
import { sessionItemOf } from '../../src/views/sessionTreeModel';
import { replayUntil } from '../unit/support/storeFixtures';
import { runtimeOf } from './controlViews';
import { FeedLink } from './feedLink';
import { useHarness } from './harness';

const harness = useHarness();

const childOf = (store: SessionStore): SessionView | undefined => store.listSessions().find((session) => session.parentId !== null);

test('a subagent waiting on the user, granted capabilities.cancel: its own chat offers Cancel, as its row and card do', async () => {
  const store = replayUntil('traces', 'claude2-permission.jsonl', (s) => {
    const child = childOf(s);
    return child?.state.state === 'requires_action' && child.awaitingUser > 0;
  });
  const child = childOf(store)!;
  const root = store.getSession(child.parentId!)!;
  assert.deepEqual(child.capabilities, { cancel: {} }, 'the agent granted cancel');
  assert.equal(store.actionsFor(child.id).cancel.allowed, true);
  assert.match(sessionItemOf(runtimeOf(store), child.id, 0)!.contextValue, /\bcanCancel\b/, 'the tree row offers Cancel');

  const parentChat = await harness().openChat();
  await FeedLink.showing(parentChat, store, root.id);
  const card = parentChat.page.locator(`subchats-child-card[data-session-id="${child.id}"]`);
  await card.getByRole('button', { name: `Cancel subagent ${child.label}` }).waitFor();
  await parentChat.close();

  const childChat = await harness().openChat();
  await FeedLink.showing(childChat, store, child.id);
  await childChat.page.locator('subchats-session-bar [role="status"]').waitFor();
  const headerStop = childChat.page.locator('subchats-session-bar').getByRole('button', { name: 'Cancel this session' });
  assert.equal(await headerStop.count(), 1, 'the child\'s own header offers Cancel');
  await headerStop.click();
  assert.deepEqual(await childChat.waitForPosted((m) => m.type === 'cancel'), { type: 'cancel', sessionId: child.id });

  await childChat.clearPosted();
  const promptStop = childChat.page.locator('subchats-prompt-box').getByRole('button', { name: /Stop|Cancel/ });
  assert.equal(await promptStop.count(), 1, 'so does its prompt box');
  await promptStop.click();
  assert.deepEqual(await childChat.waitForPosted((m) => m.type === 'cancel'), { type: 'cancel', sessionId: child.id });
  assert.deepEqual(childChat.pageErrors, []);
  await childChat.close();
});
