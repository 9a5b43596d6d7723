// Messages sent while a turn runs, in real VS Code with the demo agent: typed into the root's chat they steer
// the running turn (`_session/steering`, the demo agent's default); typed into a running subagent's own chat
// they go to its parent as a relay naming the subagent, which passes them on; with steering turned off
// (subchats.demoAgent.steering) they wait in the chat's queue until the turn ends; an idle root gets a plain
// session/prompt. What the agent received is read from the Subchats Protocol log (the wire, in order).
// Runs at both protocol passes: the turn ends differently at v1 (the session/prompt's answer) and at v2 (an
// idle state_update; the prompt is answered at once), and the steer's "read" sign differs (v1: the agent's
// next words, v2: its echo), so both paths are checked.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { openActivity, editorTab, launchWorkbench, recordFailure, screenshot, speaksV2 } from './harness/index.mjs';
import { SLOW_MS, newDemoSession, promptInChat, protocolLog, waitForProtocolLog } from './harness/subchats.mjs';

const TEST_TIMEOUT_MS = 240_000;
const ROOT_PROMPT = 'Show me what subagents can do';
/** The Explorer's Scout works this long unless cancelled: the root's turn and the Explorer outlast every step. */
const CHILD_DURATION_MS = 600_000;

/** @type {Awaited<ReturnType<typeof launchWorkbench>> | undefined} */
let workbench;

afterEach(async (t) => {
  if (t.passed === false) await recordFailure(workbench, `failed-steer-${t.name}`);
});

async function openSubchats(settings) {
  workbench = await launchWorkbench({
    files: { 'README.md': '# Steering workspace\n', 'src/app.ts': 'export const answer = 42; // TODO: ask\n' },
    settings: { 'subchats.demoAgent.pace': 30, ...settings },
  });
  await openActivity(workbench.page, 'Subchats');
  return workbench;
}

// ---- the wire, as the Protocol log shows it ----------------------------------------------------------------

const textOf = (prompt) => (Array.isArray(prompt) ? prompt.map((block) => (block?.type === 'text' ? block.text : '')).join('') : '');
const requests = (log, method) => log.filter((line) => line.dir === 'client->agent' && line.msg.method === method);
const answerTo = (log, request) => log.find((line) => line.dir === 'agent->client' && line.msg.id === request.msg.id && !line.msg.method);

/** The session/prompt whose words are `text`. */
function promptWith(log, text) {
  return requests(log, 'session/prompt').find((line) => textOf(line.msg.params?.prompt) === text);
}

/**
 * Where in the log the turn of `prompt` ended: v1 answers the session/prompt at the end of the turn; v2 answers
 * it at once and ends the turn with an idle state_update for the session. -1 while it runs.
 */
function turnEndIndex(log, prompt) {
  if (!speaksV2) return log.indexOf(answerTo(log, prompt) ?? {});
  const sessionId = prompt.msg.params?.sessionId;
  const from = log.indexOf(prompt);
  return log.findIndex((line, index) => {
    const update = line.msg.params?.update;
    return index > from && line.msg.method === 'session/update' && line.msg.params?.sessionId === sessionId && update?.sessionUpdate === 'state_update' && update.state === 'idle';
  });
}

/** The log lines around `index`, one short line each (for a failure message). */
function around(log, index, radius = 6) {
  return log
    .slice(Math.max(0, index - radius), index + radius)
    .map((line, i) => `${Math.max(0, index - radius) + i} ${line.dir === 'client->agent' ? '→' : '←'} ${JSON.stringify(line.msg).slice(0, 200)}`)
    .join('\n');
}

// ---- the chat ------------------------------------------------------------------------------------------------

const userMessage = (chat, text) => chat.locator('subchats-message[role-kind="user"]', { has: chat.locator('.sc-bubble', { hasText: text }) });
const childCard = (chat, name) => chat.locator('subchats-child-card', { has: chat.locator('.sc-card-title', { hasText: new RegExp(`^${name}$`) }) }).first();
const submit = (chat) => chat.locator('subchats-prompt-box button[type="submit"]');
const allow = (chat, file) => chat.locator('subchats-permission', { hasText: file }).getByRole('button', { name: 'Allow', exact: true });

/** A new demo session running the tour: its own edit allowed, both subagents started, the root waiting on them. */
async function startTour(page) {
  const chat = await newDemoSession(page);
  await promptInChat(chat, ROOT_PROMPT);
  await allow(chat, 'notes.md').click({ timeout: SLOW_MS });
  await chat.getByText('Waiting for the subagents…').waitFor({ timeout: SLOW_MS });
  // The Reviewer asks before it writes: until it is answered the root's turn cannot end.
  await chat.locator('subchats-permission', { hasText: 'review.md' }).waitFor({ timeout: SLOW_MS });
  return chat;
}

describe('with steering (the demo agent advertises _session/steering)', () => {
  /** @type {import('playwright-core').FrameLocator} */
  let chat;
  const steered = 'Also count the FIXME markers, please';
  const relayed = 'Look in the docs folder too';
  const idle = 'And now a /quick one';

  before(async () => {
    await openSubchats({ 'subchats.demoAgent.childDuration': CHILD_DURATION_MS });
  });
  after(async () => {
    await workbench?.close();
    workbench = undefined;
  });

  test('a message typed in the root chat while it runs steers the running turn, shows how far it got, and the agent answers it', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page, server } = workbench;
    chat = await startTour(page);
    // The verdict while a steerable turn runs: the main button steers, a second one queues instead.
    await submit(chat).filter({ hasText: /^\s*Steer\s*$/ }).waitFor();
    await chat.getByRole('button', { name: 'Queue', exact: true }).waitFor();
    await chat.getByRole('button', { name: 'Stop', exact: true }).waitFor();
    await promptInChat(chat, steered);

    // The words show at once where they were sent, then the agent reads them at its next step and answers.
    const message = userMessage(chat, steered);
    await message.waitFor();
    await chat.getByText(`Noted your message: "${steered}".`).waitFor({ timeout: SLOW_MS });
    const delivery = message.locator('.sc-delivery[data-delivery="landed"]');
    await delivery.waitFor({ timeout: SLOW_MS });
    assert.match(await delivery.innerText(), /Steered into the running turn: the agent read it/);
    await screenshot(page, 'e2e-steer-root-steered');

    // On the wire: a _session/steering for the root, sent while the tour's session/prompt had not ended its turn.
    const { steer, log } = await waitForProtocolLog(server, (log) => {
      const found = requests(log, '_session/steering').find((line) => textOf(line.msg.params?.prompt) === steered);
      return found && answerTo(log, found) ? { steer: found, log } : undefined;
    }, 'the steer and its answer');
    const tour = promptWith(log, ROOT_PROMPT);
    assert.ok(tour, 'the tour went out as a session/prompt');
    assert.equal(steer.msg.params.sessionId, tour.msg.params.sessionId, 'the root itself is steered');
    assert.ok(log.indexOf(tour) < log.indexOf(steer), 'the steer follows the tour\'s prompt');
    const end = turnEndIndex(log, tour);
    assert.ok(end === -1 || end > log.indexOf(steer), `the tour's turn was still running when the steer went out (it ended at line ${end}, the steer is line ${log.indexOf(steer)})`);
    assert.equal(answerTo(log, steer).msg.result?.outcome, 'injected');
    assert.equal(promptWith(log, steered), undefined, 'the steered words were not sent as a prompt');
    assert.match(await chat.locator('subchats-session-bar .sc-state').getAttribute('data-state'), /^(running|requires_action)$/, 'the root still works');
  });

  test('a message typed in a running subagent\'s chat goes to its parent as a relay naming it, shows in both chats, and reaches the subagent', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page, server } = workbench;
    await childCard(chat, 'Explorer').getByRole('button', { name: 'Open Explorer in a new tab' }).click();
    // `chat` is the visible chat: now the Explorer's.
    await chat.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Explorer', { exact: true }).waitFor({ timeout: SLOW_MS });
    await chat.locator('subchats-session-bar .sc-state[data-state="running"]').waitFor({ timeout: SLOW_MS });
    await submit(chat).filter({ hasText: /^\s*Send to parent\s*$/ }).waitFor();
    await promptInChat(chat, relayed);

    // The subagent's chat keeps its own copy, saying which session took it.
    const copy = userMessage(chat, relayed);
    await copy.locator('.sc-delivery', { hasText: `Sent to "${ROOT_PROMPT}" for this subagent` }).waitFor({ timeout: SLOW_MS });

    // On the wire: a steer of the parent (still running), labelled with the subagent's name.
    const { relay, log } = await waitForProtocolLog(server, (log) => {
      const found = requests(log, '_session/steering').find((line) => textOf(line.msg.params?.prompt).endsWith(`\n\n${relayed}`));
      return found && answerTo(log, found) ? { relay: found, log } : undefined;
    }, 'the relay as a steer of the parent');
    const tour = promptWith(log, ROOT_PROMPT);
    assert.equal(relay.msg.params.sessionId, tour.msg.params.sessionId, 'the relay goes to the root');
    assert.match(textOf(relay.msg.params.prompt), /^\[Relay for your subagent "Explorer" \(session [^)\s]+\): please pass this message on to it\]\n\n/);
    assert.equal(answerTo(log, relay).msg.result?.outcome, 'injected');
    assert.equal(requests(log, 'session/prompt').filter((line) => line.msg.params?.sessionId !== tour.msg.params.sessionId).length, 0, 'no prompt went to a subagent');

    // The parent passes it on (a message to the Explorer): the copy says so.
    await copy.locator('.sc-delivery', { hasText: `"${ROOT_PROMPT}" messaged this subagent` }).waitFor({ timeout: SLOW_MS });
    await screenshot(page, 'e2e-steer-relay-in-child-chat');

    // The parent's chat shows the user's words (not the label), marked as a relay for the Explorer.
    await editorTab(page, ROOT_PROMPT).click();
    await chat.getByRole('navigation', { name: 'Breadcrumb' }).getByText(ROOT_PROMPT, { exact: true }).waitFor({ timeout: SLOW_MS });
    await userMessage(chat, relayed).locator('.sc-delivery', { hasText: 'For subagent "Explorer" (relayed by this session)' }).waitFor({ timeout: SLOW_MS });
    await chat.getByText(`Passing your message on to Explorer: "${relayed}".`).waitFor({ timeout: SLOW_MS });
    assert.equal(await chat.getByText('[Relay for your subagent').count(), 0, 'the label is not shown as words');
    await screenshot(page, 'e2e-steer-relay-in-parent-chat');

    // The Explorer reads it at its next step, once its Scout stops: cancel the Scout instead of waiting for it.
    await editorTab(page, 'Explorer').click();
    await chat.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Explorer', { exact: true }).waitFor({ timeout: SLOW_MS });
    await childCard(chat, 'Scout').getByRole('button', { name: 'Cancel subagent Scout' }).click();
    await chat.getByText(`Got your message: "${relayed}".`).waitFor({ timeout: SLOW_MS });
    await screenshot(page, 'e2e-steer-relay-answered-by-child');
  });

  test('an idle root gets a plain session/prompt, no steer', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page, server } = workbench;
    await editorTab(page, ROOT_PROMPT).click();
    await chat.getByRole('navigation', { name: 'Breadcrumb' }).getByText(ROOT_PROMPT, { exact: true }).waitFor({ timeout: SLOW_MS });
    // The Reviewer's answer lets the tour end; the root is then idle.
    await allow(chat, 'review.md').click();
    await chat.getByText('That is the whole tour.').waitFor({ timeout: SLOW_MS });
    await chat.locator('subchats-session-bar .sc-state[data-state="idle"]').waitFor({ timeout: SLOW_MS });
    await submit(chat).filter({ hasText: /^\s*Send\s*$/ }).waitFor();
    assert.equal(await chat.getByRole('button', { name: 'Stop', exact: true }).count(), 0, 'nothing to stop');
    const steersBefore = requests(protocolLog(server), '_session/steering').length;
    await promptInChat(chat, idle);
    await chat.getByText('Quick answer from the').waitFor({ timeout: SLOW_MS });
    assert.equal(await userMessage(chat, idle).locator('.sc-delivery').count(), 0, 'a plain prompt has no delivery line');

    const log = await waitForProtocolLog(server, (log) => (promptWith(log, idle) ? log : undefined), 'the session/prompt');
    const prompt = promptWith(log, idle);
    assert.equal(prompt.msg.params.sessionId, promptWith(log, ROOT_PROMPT).msg.params.sessionId);
    assert.equal(requests(log, '_session/steering').length, steersBefore, 'no steer was sent');
  });
});

describe('without steering (subchats.demoAgent.steering: false)', () => {
  after(async () => {
    await workbench?.close();
    workbench = undefined;
  });

  test('a message typed while the root runs is queued visibly, and sent as a session/prompt when the turn ends', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page, server } = await openSubchats({ 'subchats.demoAgent.steering': false });
    const queuedText = 'Then a /quick one, please';
    const chat = await startTour(page);
    // Nothing to steer with: the main button queues, and there is no second "Queue" button.
    await submit(chat).filter({ hasText: /^\s*Queue\s*$/ }).waitFor();
    assert.equal(await chat.getByRole('button', { name: 'Steer', exact: true }).count(), 0);
    await promptInChat(chat, queuedText);
    const queued = chat.locator('.sc-queued', { hasText: queuedText });
    await queued.waitFor();
    assert.match(await queued.innerText(), /queued, sent when the turn ends/);
    await screenshot(page, 'e2e-steer-off-queued');

    // The turn ends once the Reviewer is answered; then the queue sends its message.
    await allow(chat, 'review.md').click();
    await chat.getByText('That is the whole tour.').waitFor({ timeout: SLOW_MS });
    await queued.waitFor({ state: 'detached', timeout: SLOW_MS });
    await chat.getByText('Quick answer from the').waitFor({ timeout: SLOW_MS });
    await userMessage(chat, queuedText).waitFor();

    const log = await waitForProtocolLog(server, (log) => (promptWith(log, queuedText) ? log : undefined), 'the queued message as a session/prompt');
    const initialize = answerTo(log, requests(log, 'initialize')[0]);
    assert.equal(initialize.msg.result?._meta?.steering, undefined, 'the agent does not advertise steering');
    assert.deepEqual(requests(log, '_session/steering'), [], 'no steer on the wire');
    const tour = promptWith(log, ROOT_PROMPT);
    const sent = promptWith(log, queuedText);
    assert.equal(sent.msg.params.sessionId, tour.msg.params.sessionId);
    const end = turnEndIndex(log, tour);
    assert.ok(end >= 0 && end < log.indexOf(sent), `sent after the tour's turn ended (ended at line ${end}, sent at line ${log.indexOf(sent)}):\n${around(log, log.indexOf(sent))}`);
  });
});
