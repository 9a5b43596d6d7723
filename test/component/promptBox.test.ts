// The prompt box in real Chromium: `/` commands and `@` files as a keyboard-driven list, chips, history
// with ↑/↓, the queue while the session works, pasted media gated by the agent's capabilities, and the
// relay offer in a subagent's chat.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { WebviewToHostMessage } from '../../src/protocol/webviewMessages';
import { relayPromptText } from '../../src/protocol/relayText';
import { FeedLink } from './feedLink';
import { repoRoot, useHarness, type ChatPage } from './harness';
import { CHILD_A, ROOT } from './scenes';
import { SceneWire } from './wireScenes';

const screenshots = join(repoRoot, 'test-results', 'screenshots');
const harness = useHarness();
before(() => mkdirSync(screenshots, { recursive: true }));

const COMMANDS = [
  { name: 'quick', description: 'Short answer' },
  { name: 'long', description: 'Stream a very long answer' },
  { name: 'plan', description: '<img src=x onerror="window.__pwned=1">Make a plan', hint: 'what to plan' },
];

/** An agent that steers (claude-agent-acp and codex-acp advertise it so). */
const STEERING = { _meta: { steering: { supported: true } } };

/** An idle root with the agent's commands, after two turns (the second one not answered in words). */
function scene(agent: Record<string, unknown> = {}): SceneWire {
  const w = new SceneWire(agent).root(ROOT, 'Prompt box');
  w.update(ROOT, { sessionUpdate: 'available_commands_update', availableCommands: COMMANDS });
  w.prompt(ROOT, 'first prompt');
  w.say(ROOT, 'agent', 'an answer').endTurn(ROOT);
  w.prompt(ROOT, 'second prompt');
  return w.endTurn(ROOT);
}

async function open(w = scene(), sessionId = ROOT): Promise<{ chat: ChatPage; link: FeedLink }> {
  const chat = await harness().openChat();
  const link = await FeedLink.showing(chat, w.store, sessionId);
  await chat.page.locator('#sc-prompt-input').waitFor();
  return { chat, link };
}

const options = (chat: ChatPage) => chat.page.locator('.sc-completion [role="option"]');
const prompts = async (chat: ChatPage): Promise<WebviewToHostMessage[]> => (await chat.posted()).filter((m) => m.type === 'prompt');

describe('prompt box', () => {
  test('/ lists the advertised commands, filters as you type, and ↓/Enter inserts one', async () => {
    const { chat } = await open();
    const input = chat.page.locator('#sc-prompt-input');
    await input.pressSequentially('/');
    assert.deepEqual(await options(chat).locator('.sc-completion-name').allTextContents(), ['/quick', '/long', '/plan']);
    // Agent text is text: the markup in a description is shown, never run.
    assert.match((await options(chat).nth(2).textContent()) ?? '', /<img src=x onerror=/);
    assert.equal(await chat.pwned(), false);
    await chat.page.screenshot({ path: join(screenshots, 'prompt-commands.png') });
    await input.pressSequentially('l');
    assert.deepEqual(await options(chat).locator('.sc-completion-name').allTextContents(), ['/long', '/plan']);
    await input.press('ArrowDown');
    assert.equal(await options(chat).nth(1).getAttribute('aria-selected'), 'true');
    assert.equal(await input.getAttribute('aria-activedescendant'), 'sc-completion-1');
    await input.press('ArrowDown'); // wraps around
    assert.equal(await options(chat).nth(0).getAttribute('aria-selected'), 'true');
    await input.press('Enter');
    assert.equal(await input.inputValue(), '/long ');
    assert.equal(await options(chat).count(), 0);
    assert.deepEqual(await prompts(chat), [], 'choosing a command does not send');
    await input.pressSequentially('now');
    await input.press('Enter');
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'prompt'), { type: 'prompt', sessionId: ROOT, text: '/long now' });
    await chat.close();
  });

  test('Esc closes the list, Tab chooses, and no list means no capture of the keys', async () => {
    const { chat } = await open();
    const input = chat.page.locator('#sc-prompt-input');
    await input.pressSequentially('/pl');
    await options(chat).first().waitFor();
    await input.press('Escape');
    assert.equal(await options(chat).count(), 0);
    assert.equal(await input.inputValue(), '/pl');
    await input.pressSequentially('a');
    await input.press('Tab');
    assert.equal(await input.inputValue(), '/plan ');
    // A command typed out in full goes with Enter (no completion step in between).
    await input.fill('/quick');
    await input.press('Enter');
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'prompt'), { type: 'prompt', sessionId: ROOT, text: '/quick' });
    await input.fill('');
    await input.pressSequentially('/zzz');
    assert.match((await chat.page.locator('.sc-completion').textContent()) ?? '', /no matching commands/);
    await chat.close();
  });

  test('↑/↓ in an empty box walk the session\'s earlier prompts; editing ends the walk', async () => {
    const { chat } = await open();
    const input = chat.page.locator('#sc-prompt-input');
    await input.press('ArrowUp');
    assert.equal(await input.inputValue(), 'second prompt');
    await input.press('ArrowUp');
    assert.equal(await input.inputValue(), 'first prompt');
    await input.press('ArrowUp'); // stays at the oldest
    assert.equal(await input.inputValue(), 'first prompt');
    await input.press('ArrowDown');
    assert.equal(await input.inputValue(), 'second prompt');
    await input.press('ArrowDown');
    assert.equal(await input.inputValue(), '');
    await input.pressSequentially('draft');
    await input.press('ArrowUp'); // a draft is not replaced
    assert.equal(await input.inputValue(), 'draft');
    await chat.close();
  });

  test('@ asks the host for files, a chosen one becomes a removable chip and goes with the prompt', async () => {
    const { chat } = await open();
    const input = chat.page.locator('#sc-prompt-input');
    await input.pressSequentially('see @a.t');
    const search = (await chat.waitForPosted((m) => m.type === 'searchFiles' && m.query === 'a.t')) as Extract<WebviewToHostMessage, { type: 'searchFiles' }>;
    // A stale answer (an older request) is not shown.
    await chat.send({ type: 'fileSearchResults', requestId: search.requestId - 1, items: [{ path: 'old.ts', kind: 'file' }] });
    await chat.send({ type: 'fileSearchResults', requestId: search.requestId, items: [{ path: 'src/a.ts', kind: 'file', open: true }, { path: 'src', kind: 'folder' }] });
    await options(chat).first().waitFor();
    assert.deepEqual(await options(chat).locator('.sc-completion-name').allTextContents(), ['src/a.ts', 'src']);
    await chat.page.screenshot({ path: join(screenshots, 'prompt-files.png') });
    await input.press('Enter');
    assert.equal(await input.inputValue(), 'see ');
    const chips = chat.page.locator('.sc-chip');
    // A chip says where the file is in the workspace (no workspace sent here: the path as the host gave it).
    assert.deepEqual(await chips.allTextContents().then((t) => t.map((s) => s.trim())), ['src/a.ts']);
    // Added from the editor: a selection chip.
    await chat.send({ type: 'addAttachment', attachment: { kind: 'selection', path: 'src/b.ts', startLine: 3, endLine: 7 } });
    await chips.nth(1).waitFor();
    assert.equal((await chips.nth(1).textContent())?.trim(), 'src/b.ts:3-7');
    await chat.send({ type: 'addAttachment', attachment: { kind: 'file', path: 'README.md' } });
    await chips.nth(2).waitFor();
    await chat.page.getByRole('button', { name: 'Remove README.md' }).click();
    await chips.nth(2).waitFor({ state: 'detached' });
    await input.press('Enter');
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'prompt'), {
      type: 'prompt',
      sessionId: ROOT,
      text: 'see',
      attachments: [
        { kind: 'file', path: 'src/a.ts' },
        { kind: 'selection', path: 'src/b.ts', startLine: 3, endLine: 7 },
      ],
    });
    assert.equal(await chips.count(), 0);
    await chat.close();
  });

  test('while a turn runs the box names what a message becomes (Queue without steering, Steer with it), shows the host\'s queue and stops on Escape', async () => {
    const w = scene();
    w.prompt(ROOT, 'third prompt');
    const { chat, link } = await open(w);
    const input = chat.page.locator('#sc-prompt-input');
    const submit = chat.page.locator('button[type="submit"]');
    await input.fill('queued one');
    assert.match((await submit.textContent()) ?? '', /Queue/);
    await chat.page.locator('.sc-prompt-reason', { hasText: 'does not advertise steering' }).waitFor();
    await input.press('Enter');
    // The host decides and queues: the box only posts the words.
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'prompt'), { type: 'prompt', sessionId: ROOT, text: 'queued one' });
    // What the host does with it: the store's queue (the client's own, not the wire's).
    w.store.enqueue(ROOT, { id: 'q1', text: 'queued one', attachments: 0, at: Date.now(), content: [] });
    w.store.enqueue(ROOT, { id: 'q2', text: 'for the helper', attachments: 0, at: Date.now(), content: [], relayFor: { sessionId: CHILD_A, label: 'Helper' } });
    await link.flush();
    const queued = chat.page.locator('.sc-queued');
    await queued.nth(1).waitFor();
    assert.match((await queued.nth(1).textContent()) ?? '', /for Helper, queued/);
    await chat.page.screenshot({ path: join(screenshots, 'prompt-queue.png') });
    await queued.nth(1).getByRole('button', { name: 'Remove queued message' }).click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'unqueue'), { type: 'unqueue', sessionId: ROOT, queuedId: 'q2' });
    // An agent that steers: the message joins the turn, or waits if the user chooses Queue.
    w.restartAgent(STEERING, ROOT);
    w.store.unqueue(ROOT, 'q1');
    w.store.unqueue(ROOT, 'q2');
    await link.flush();
    await chat.page.locator('button[type="submit"]', { hasText: 'Steer' }).waitFor();
    await input.fill('look at the tests too');
    await chat.page.getByRole('button', { name: 'Queue', exact: true }).click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'prompt' && m.text === 'look at the tests too'), { type: 'prompt', sessionId: ROOT, text: 'look at the tests too', queue: true });
    await input.fill('and the docs');
    await chat.page.screenshot({ path: join(screenshots, 'prompt-steer.png') });
    await input.press('Enter');
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'prompt' && m.text === 'and the docs'), { type: 'prompt', sessionId: ROOT, text: 'and the docs' });
    // Escape in the empty box stops the turn.
    await input.press('Escape');
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'cancel'), { type: 'cancel', sessionId: ROOT });
    await chat.close();
  });

  test('pasted images are refused with the reason unless the agent advertises them', async () => {
    const w = scene();
    const { chat, link } = await open(w);
    const paste = () =>
      chat.page.locator('#sc-prompt-input').evaluate((input) => {
        const data = new DataTransfer();
        data.items.add(new File([new Uint8Array([137, 80, 78, 71])], 'shot.png', { type: 'image/png' }));
        input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      });
    await paste();
    await chat.page.locator('.sc-prompt-reason', { hasText: 'does not accept images' }).waitFor();
    assert.equal(await chat.page.locator('.sc-chip').count(), 0);
    w.restartAgent({ capabilities: { session: { prompt: { image: {} } } } }, ROOT);
    await link.flush();
    await paste();
    await chat.page.locator('.sc-chip', { hasText: 'shot.png' }).waitFor();
    await chat.page.locator('#sc-prompt-input').press('Enter');
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'prompt'), {
      type: 'prompt',
      sessionId: ROOT,
      text: '',
      attachments: [{ kind: 'image', name: 'shot.png', mimeType: 'image/png', data: 'iVBORw==' }],
    });
    await chat.close();
  });

  test('a subagent\'s box sends to its parent, labelled for it, and says how the parent takes it', async () => {
    const w = scene();
    w.prompt(ROOT, 'get help');
    w.child(ROOT, CHILD_A, { title: 'Helper' });
    const { chat } = await open(w, CHILD_A);
    const input = chat.page.locator('#sc-prompt-input');
    assert.equal(await input.isDisabled(), false);
    await chat.page.locator('.sc-prompt-reason', { hasText: 'for "Helper": it waits in the parent\'s queue' }).waitFor();
    await input.fill('please also check the docs');
    await chat.page.screenshot({ path: join(screenshots, 'prompt-relay.png') });
    await chat.page.getByRole('button', { name: /Send to parent/ }).click();
    assert.deepEqual(await chat.waitForPosted((m) => m.type === 'prompt'), { type: 'prompt', sessionId: CHILD_A, text: 'please also check the docs' });
    await chat.close();
  });

  test('a steered message shows how far it got; one that did not reach the agent offers its words back to the prompt box', async () => {
    const w = scene(STEERING);
    w.prompt(ROOT, 'fix the parser');
    // Read: the agent echoes it into the turn as a user message of its own (v2, as codex-acp does).
    w.steer(ROOT, 'also check the docs').chunk(ROOT, 'user', 'also check the docs', 'echo-1');
    // Taken in, but the turn was cancelled before the agent said anything more.
    w.steer(ROOT, 'and count the lines').endTurn(ROOT, 'cancelled');
    w.prompt(ROOT, relayPromptText({ childLabel: 'Explorer', childId: 'c' }, 'look at the tests'));
    const { chat } = await open(w);
    const lines = chat.page.locator('.sc-delivery');
    await lines.nth(2).waitFor();
    assert.deepEqual((await lines.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim()), [
      'Steered into the running turn: the agent read it',
      'Not delivered: The turn was cancelled before the agent showed that it read this message; it may never have reached the agent. Put back in the prompt box',
      'For subagent "Explorer" (relayed by this session)',
    ]);
    await chat.page.screenshot({ path: join(screenshots, 'steer-delivery.png') });
    await chat.page.getByRole('button', { name: 'Put back in the prompt box' }).click();
    await chat.page.waitForFunction(() => (document.querySelector('#sc-prompt-input') as HTMLTextAreaElement | null)?.value === 'and count the lines');
    await chat.close();
  });
});
