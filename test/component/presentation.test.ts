// The tree and the chat say the same about a session: for a cancelled and a failed child, the tree item
// (src/views) and the chat's child card, outline and session bar (webview) show the same icon and label.
// Tool calls a cancelled turn left open stop spinning; another protocol version gets a clear message.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { HostToWebviewMessage } from '../../src/protocol/webviewMessages';
import type { MessageEntry } from '../../src/store/model';
import type { SessionStore } from '../../src/store/sessionStore';
import { sessionTreeItem } from '../../src/views/sessionTreeModel';
import { FeedLink } from './feedLink';
import { showHeaderDetails } from './headerDetails';
import type { ChatPage } from './harness';
import { useHarness } from './harness';
import { CHILD_A, ROOT, parentWithChildren } from './scenes';
import { SceneWire, textBlock } from './wireScenes';

const harness = useHarness();

/** The tree's view of a session: its icon (without `~spin`) and the state part of its description. */
function treeView(store: SessionStore, sessionId: string): { icon: string; label: string } {
  const session = store.getSession(sessionId)!;
  const item = sessionTreeItem(session, {
    agentName: 'Demo',
    connectionId: 'c1',
    actions: store.actionsFor(sessionId),
    now: Date.now(),
    live: true,
    reconnectable: false,
    ancestry: [],
  });
  return { icon: item.icon.replace(/~spin$/, ''), label: item.description.split(' · ')[0]! };
}

/** The chat's view of a state badge: its codicon and its text. */
async function badge(chat: ChatPage, selector: string): Promise<{ icon: string; label: string }> {
  const state = chat.page.locator(selector).first();
  await state.waitFor();
  return state.evaluate((el) => {
    const icon = [...(el.querySelector('.codicon')?.classList ?? [])].find((c) => c.startsWith('codicon-') && !c.startsWith('codicon-modifier-'));
    return { icon: icon?.slice('codicon-'.length) ?? '', label: (el.textContent ?? '').trim() };
  });
}

/** Claude's Agent call launches a subagent that lives on its parent's wire: it has no session id of its own. */
const CLAUDE_AGENT = { _meta: { claudeCode: { toolName: 'Agent' } } };
/** The subagent of the root's Agent call `agent1` (the store names it after its parent and the call). */
const FAILED = `${ROOT}#agent1`;

/** A announced and cancelled by the agent; a Claude subagent that failed with its parent's turn. */
function endedChildren(): SessionStore {
  const scene = parentWithChildren();
  scene.state(CHILD_A, { state: 'idle', stopReason: 'cancelled' });
  scene.toolCall(ROOT, 'agent1', { title: 'Agent', kind: 'think', status: 'in_progress', rawInput: { description: 'Update the snapshots' }, ...CLAUDE_AGENT });
  scene.failTurn(ROOT, 'The model is overloaded.');
  return scene.store;
}

describe('tree and chat agree', () => {
  test('a cancelled and a failed child: same icon and label in the tree, the card, the outline and the session bar', async () => {
    const store = endedChildren();
    const chat = await harness().openChat();
    await FeedLink.showing(chat, store, ROOT);
    const expected: Record<string, { icon: string; label: string }> = { [CHILD_A]: { icon: 'circle-slash', label: 'Cancelled' }, [FAILED]: { icon: 'error', label: 'Failed' } };
    for (const id of [CHILD_A, FAILED]) {
      assert.deepEqual(treeView(store, id), expected[id], `tree ${id}`);
      assert.deepEqual(await badge(chat, `subchats-child-card[data-session-id="${id}"] .sc-card-head .sc-state`), expected[id], `card ${id}`);
    }
    await showHeaderDetails(chat.page);
    await chat.page.getByRole('button', { name: /Show session outline/ }).click();
    for (const id of [CHILD_A, FAILED]) {
      const icon = chat.page.locator(`subchats-outline [data-outline-session="${id}"] .codicon`);
      assert.equal(await icon.getAttribute('aria-label'), expected[id]!.label, `outline ${id}`);
      assert.match((await icon.getAttribute('class')) ?? '', new RegExp(`codicon-${expected[id]!.icon}\\b`));
    }
    // The colour is the tree's theme colour, as the webview's CSS variable.
    const color = await chat.page
      .locator(`subchats-child-card[data-session-id="${FAILED}"] .sc-card-head .sc-state .codicon`)
      .first()
      .evaluate((el) => (el as HTMLElement).style.color);
    assert.equal(color, 'var(--vscode-errorForeground)');
    await chat.close();

    for (const id of [CHILD_A, FAILED]) {
      const child = await harness().openChat();
      await FeedLink.showing(child, store, id);
      assert.deepEqual(await badge(child, 'subchats-session-bar .sc-state'), expected[id], `session bar ${id}`);
      assert.deepEqual(child.pageErrors, []);
      await child.close();
    }
  });

  test('the state line says what was reported and when, with who said so', async () => {
    const store = endedChildren();
    const chat = await harness().openChat();
    await FeedLink.showing(chat, store, FAILED);
    await showHeaderDetails(chat.page);
    const line = chat.page.locator('subchats-session-bar .sc-state-explanation');
    await line.waitFor();
    assert.match((await line.textContent()) ?? '', /failed \d\d:\d\d:\d\d with the parent's turn$/);
    assert.equal(await chat.page.locator('subchats-session-bar .sc-state').getAttribute('title'), (await line.textContent())?.trim());
    await chat.close();
  });

  test('a tool call left open by a cancelled turn stops spinning, says so, and drops its progress', async () => {
    const scene = parentWithChildren();
    scene.toolCall(ROOT, 'open1', { title: 'Long search', kind: 'search', status: 'in_progress' });
    scene.toolCall(ROOT, 'open1', { content: [{ type: 'content', content: textBlock('Scanning 40 files') }], _meta: { subagentProgress: true } });
    const chat = await harness().openChat();
    const link = await FeedLink.showing(chat, scene.store, ROOT);
    const call = chat.page.locator('[data-tool-call-id="open1"]');
    await call.locator('.sc-progress').getByText('Scanning 40 files').waitFor();
    assert.equal(await call.locator('.sc-status .codicon-modifier-spin').count(), 1);

    scene.endTurn(ROOT, 'cancelled');
    await link.flush();
    const status = call.locator('.sc-status');
    await status.getByText('stopped · turn cancelled').waitFor();
    assert.equal(await status.getAttribute('data-stopped'), 'cancelled');
    assert.equal(await status.locator('.codicon-modifier-spin').count(), 0);
    assert.equal(await status.locator('.codicon-debug-stop').count(), 1);
    assert.equal(await call.locator('.sc-progress').count(), 0);
    assert.deepEqual(chat.pageErrors, []);
    await chat.close();
  });
});

describe('protocol version', () => {
  test('a snapshot or delta of another protocol version is not applied; the chat asks to be reopened', async () => {
    const chat = await harness().openChat();
    const link = await FeedLink.showing(chat, parentWithChildren().store, ROOT);
    await chat.page.getByText('Please fix the failing tests').waitFor();
    const rev = link.feed.revision!;
    await chat.send({
      type: 'delta',
      protocolVersion: 999,
      fromRev: rev,
      toRev: rev + 1,
      sessions: [{ sessionId: ROOT, entries: [{ index: 0, entry: { kind: 'message', id: 'x', role: 'agent', text: 'from the future', attachments: [], rev: rev + 1, at: 0 } as MessageEntry }] }],
    } as HostToWebviewMessage);
    await chat.page.getByText('Subchats was updated; reopen this chat.').waitFor();
    assert.equal(await chat.page.getByText('from the future').count(), 0);
    assert.equal(await chat.page.locator('subchats-transcript').count(), 0);
    assert.deepEqual((await chat.posted()).filter((m) => m.type === 'resync'), [], 'no resync loop');
    await chat.close();

    const fresh = await harness().openChat();
    await fresh.send({ type: 'snapshot', protocolVersion: 1, rootSessionId: ROOT, rev: 5, sessions: 'whatever' } as unknown as HostToWebviewMessage);
    await fresh.page.getByText('Subchats was updated; reopen this chat.').waitFor();
    assert.deepEqual(fresh.pageErrors, []);
    await fresh.close();
  });
});

describe('wire order', () => {
  test("a child's card is drawn where the child first showed up, after the permission to launch it", async () => {
    // qwen: the launch call, the permission to run it (answered), then the subagent's first words.
    const scene = new SceneWire().root(ROOT, 'Root');
    scene.prompt(ROOT, 'Split the work');
    scene.toolCall(ROOT, 'agent1', { title: 'Agent: Subtask A', kind: 'other', status: 'in_progress', _meta: { toolName: 'agent' } });
    scene.askPermission(ROOT, 0, { toolCallId: 'agent1', title: 'Agent' }, [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }]);
    scene.answerPermission(0, 'allow');
    scene.update(ROOT, { sessionUpdate: 'agent_message_chunk', content: textBlock('Working on subtask A.'), _meta: { parentToolCallId: 'agent1' } });
    const chat = await harness().openChat();
    await FeedLink.showing(chat, scene.store, ROOT);
    await chat.page.locator('subchats-child-card').waitFor();
    const order = await chat.page.evaluate(() =>
      [...document.querySelectorAll('subchats-tool-call, subchats-permission, subchats-child-card')].map((el) => el.tagName.toLowerCase()),
    );
    assert.deepEqual(order, ['subchats-tool-call', 'subchats-permission', 'subchats-child-card']);
  });
});
