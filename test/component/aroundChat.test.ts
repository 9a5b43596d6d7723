// Around the chat, in real Chromium: the header's setting pickers, the Changes sections (parent and child
// card) and the children's timeline, fed through the real ChatFeed from a real SessionStore (wireScenes.ts).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { WEBVIEW_PROTOCOL_VERSION } from '../../src/protocol/webviewMessages';
import { FeedLink } from './feedLink';
import { showHeaderDetails } from './headerDetails';
import { repoRoot, useHarness } from './harness';
import { SceneWire } from './wireScenes';

const screenshots = join(repoRoot, 'test-results', 'screenshots');
const harness = useHarness();
before(() => mkdirSync(screenshots, { recursive: true }));

const MODES = { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'plan', name: 'Plan', description: 'No edits' }] };
const OPTIONS = [
  { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: 'ask', options: [{ value: 'ask', name: 'Ask' }, { value: 'plan', name: 'Plan' }] },
  { id: 'model', name: 'Model', type: 'select', currentValue: 'fast', options: [{ group: 'g', name: 'G', options: [{ value: 'fast', name: 'Fast' }, { value: 'slow', name: 'Slow' }] }] },
  { id: 'thoughts', name: 'Show thoughts', type: 'boolean', currentValue: true },
];

/** A root with two children; the root edits notes.md, child A writes review.md and edits notes.md too. */
function editingTree(): SceneWire {
  const w = new SceneWire().root('root', 'Fix the docs', { modes: MODES, configOptions: OPTIONS });
  w.child('root', 'a', { title: 'Reviewer' }).child('root', 'b', { title: 'Explorer' });
  w.toolCall('root', 'e1', { kind: 'edit', status: 'completed', content: [{ type: 'diff', path: '/repo/notes.md', oldText: 'a\n', newText: 'a\nb\n' }] });
  return w.toolCall('a', 'e2', { kind: 'edit', status: 'completed', content: [{ type: 'diff', path: '/repo/review.md', oldText: null, newText: 'r1\nr2\n' }] });
}

describe('around the chat', () => {
  test('the header offers the root\'s modes and options as pickers and posts what is picked', async () => {
    const chat = await harness().openChat();
    await FeedLink.showing(chat, editingTree().store, 'root');
    const { page } = chat;
    const settings = page.getByRole('group', { name: 'Session settings' });
    await settings.waitFor();
    // The modes and the config option of category "mode" are one picker, not two.
    assert.equal(await settings.getByRole('combobox', { name: 'Mode', exact: true }).count(), 1);
    assert.equal(await settings.getByRole('combobox', { name: 'Mode', exact: true }).inputValue(), 'ask');
    assert.deepEqual(await settings.getByRole('combobox', { name: 'Model' }).locator('option').allTextContents(), ['Fast', 'Slow']);
    await settings.getByRole('combobox', { name: 'Mode', exact: true }).selectOption('plan');
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'changeSetting'), { type: 'changeSetting', sessionId: 'root', change: { kind: 'mode', modeId: 'plan' } });
    await chat.clearPosted();
    await settings.getByRole('combobox', { name: 'Model' }).selectOption('slow');
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'changeSetting'), { type: 'changeSetting', sessionId: 'root', change: { kind: 'option', configId: 'model', value: 'slow' } });
    await chat.clearPosted();
    await settings.getByRole('checkbox', { name: 'Show thoughts' }).uncheck();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'changeSetting'), { type: 'changeSetting', sessionId: 'root', change: { kind: 'option', configId: 'thoughts', value: false } });
    // Subagents get no pickers: their cards have none.
    assert.equal(await page.locator('subchats-child-card [role="group"][aria-label="Session settings"]').count(), 0);
    await chat.close();
  });

  test('a picker follows the store and is disabled, with the reason, when the session takes no changes', async () => {
    const chat = await harness().openChat();
    const w = editingTree();
    const link = await FeedLink.showing(chat, w.store, 'root');
    const mode = chat.page.getByRole('combobox', { name: 'Mode', exact: true });
    await mode.waitFor();
    w.update('root', { sessionUpdate: 'current_mode_update', currentModeId: 'plan' });
    await link.flush();
    await chat.page.waitForFunction(() => (document.querySelector('select[aria-label="Mode"]') as HTMLSelectElement | null)?.value === 'plan');
    // The agent process has exited: the connection is gone, and the store says why no setting can change.
    w.store.markDisconnected();
    await link.flush();
    await chat.page.waitForFunction(() => (document.querySelector('select[aria-label="Mode"]') as HTMLSelectElement | null)?.disabled === true);
    assert.equal(await chat.page.locator('.sc-setting', { has: mode }).getAttribute('title'), w.store.actionsFor('root').changeSetting.reason);
    await chat.close();
  });

  test('the focus-prompt keybinding\'s message puts the cursor in the prompt box', async () => {
    const chat = await harness().openChat();
    await FeedLink.showing(chat, editingTree().store, 'root');
    await chat.page.locator('subchats-prompt-box textarea').waitFor();
    assert.equal(await chat.page.evaluate(() => document.activeElement?.tagName), 'BODY');
    await chat.send({ type: 'focusPrompt', protocolVersion: WEBVIEW_PROTOCOL_VERSION });
    await chat.page.waitForFunction(() => document.activeElement?.tagName === 'TEXTAREA');
    await chat.close();
  });

  test('a focus request before the first snapshot (New Session\'s fresh chat) puts the cursor in the prompt box once it shows', async () => {
    const chat = await harness().openChat();
    await chat.send({ type: 'focusPrompt', protocolVersion: WEBVIEW_PROTOCOL_VERSION });
    assert.equal(await chat.page.locator('subchats-prompt-box').count(), 0, 'the chat is still loading');
    await FeedLink.showing(chat, editingTree().store, 'root');
    await chat.page.waitForFunction(() => document.activeElement?.id === 'sc-prompt-input');
    await chat.close();
  });

  test('Changes: the parent lists its tree\'s files, each card its own; Open Changes asks the host', async () => {
    const chat = await harness().openChat();
    const w = editingTree();
    // Rows read relative to the workspace folder the host names.
    const link = await FeedLink.showing(chat, w.store, 'root', { folders: [{ name: 'repo', path: '/repo' }] });
    const { page } = chat;
    await showHeaderDetails(page);
    const parent = page.locator('subchats-app > header subchats-changes');
    await parent.getByText('2 files changed').waitFor();
    await parent.locator('.sc-changes-toggle').click();
    assert.deepEqual(await parent.locator('li').allTextContents().then((rows) => rows.map((row) => row.replace(/\s+/g, ' ').trim())), ['notes.md +1 −0', 'review.md +2 −0']);
    const reviewer = page.locator('subchats-child-card', { hasText: 'Reviewer' });
    await reviewer.locator('subchats-changes').getByText('1 file changed').waitFor();
    assert.equal(await page.locator('subchats-child-card', { hasText: 'Explorer' }).locator('subchats-changes .sc-changes').count(), 0, 'no section without changes');

    // A child's new edit reaches its own card and the parent's tree list in the next delta.
    w.toolCall('b', 'e3', { kind: 'edit', status: 'completed', content: [{ type: 'diff', path: '/repo/notes.md', oldText: 'a\nb\n', newText: 'a\nb\nc\n' }] });
    await link.flush();
    await page.locator('subchats-child-card', { hasText: 'Explorer' }).locator('subchats-changes').getByText('1 file changed').waitFor();
    await parent.locator('li[data-path="/repo/notes.md"]').getByText('+2 −0').waitFor();
    await page.screenshot({ path: join(screenshots, 'component-changes-section.png') });

    await parent.getByRole('button', { name: 'Open Changes' }).click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'openChanges'), { type: 'openChanges', sessionId: 'root', scope: 'tree' });
    await chat.clearPosted();
    await reviewer.getByRole('button', { name: 'Open Changes' }).click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'openChanges'), { type: 'openChanges', sessionId: 'a', scope: 'tree' });
    await parent.locator('li').first().getByRole('button').click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'openFile'), { type: 'openFile', path: '/repo/notes.md' });
    await chat.close();
  });

  test('the timeline shows each child as a bar: working, waiting on the user, and how it ended', async () => {
    const chat = await harness().openChat();
    const w = editingTree();
    const link = await FeedLink.showing(chat, w.store, 'root');
    const { page } = chat;
    await showHeaderDetails(page);
    const timeline = page.locator('subchats-timeline');
    await timeline.getByText(/Timeline · 2 subagents/).waitFor();
    w.state('a', { state: 'requires_action' }).state('a', { state: 'running' }).state('a', { state: 'idle', stopReason: 'end_turn' });
    w.state('b', { state: 'idle', stopReason: 'cancelled' });
    await link.flush();
    const reviewer = timeline.locator('.sc-timeline-row[data-session-id="a"]');
    await reviewer.locator('rect.sc-phase-done').waitFor({ state: 'attached' });
    assert.equal(await reviewer.locator('rect.sc-phase-waiting').count(), 1);
    // Then the times its card and tree row give (working, waiting on you, idle): the same breakdown.
    assert.match((await reviewer.getAttribute('aria-label')) ?? '', /^Reviewer: started \d\d:\d\d:\d\d, waited on you once, Done \d\d:\d\d:\d\d \((?:working|waiting on you|idle|under a second)[^)]*\)$/);
    await timeline.locator('.sc-timeline-row[data-session-id="b"] rect.sc-phase-cancelled').waitFor({ state: 'attached' });
    // Bars are positioned on one time axis: the Explorer's cancel comes after the Reviewer's end.
    const doneX = Number(await reviewer.locator('rect.sc-phase-done').getAttribute('x'));
    const cancelX = Number(await timeline.locator('.sc-timeline-row[data-session-id="b"] rect.sc-phase-cancelled').getAttribute('x'));
    assert.ok(cancelX > doneX, `${cancelX} > ${doneX}`);
    await page.screenshot({ path: join(screenshots, 'component-children-timeline.png') });
    assert.deepEqual(await chat.cspViolations(), []);
    await chat.close();
  });

  test('hidden, the header details render nothing (a parent of 300 subagents keeps no timeline rows in the page); shown, they render', async () => {
    const chat = await harness().openChat();
    const w = new SceneWire().root('root', 'Many subagents');
    for (let i = 0; i < 300; i++) w.child('root', `c${i}`, { title: `Subagent ${i}` });
    await FeedLink.showing(chat, w.store, 'root');
    const { page } = chat;
    await page.locator('subchats-child-card').first().waitFor();
    const details = page.locator('#sc-header-details');
    assert.equal(await details.getAttribute('hidden'), '');
    assert.equal(await details.locator('*').count(), 0, 'nothing rendered inside the hidden details');
    await showHeaderDetails(page);
    await page.locator('subchats-timeline').getByText(/Timeline · 300 subagents/).waitFor();
    assert.equal(await page.locator('.sc-timeline-row').count(), 300);
    await page.locator('subchats-session-bar').getByRole('button', { name: 'Session details' }).click();
    await details.locator('subchats-timeline').waitFor({ state: 'detached' });
    assert.equal(await page.locator('.sc-timeline-row').count(), 0);
    await chat.close();
  });
});
