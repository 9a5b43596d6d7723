// Transcripts and history in real VS Code: an opened transcript shows the tree `subchats replay` computes,
// and after 'Developer: Reload Window' the sessions come back from the extension's workspace storage
// (finished ones as they ended, an interrupted run as disconnected) with their chat panels restored.
// Run (after `node scripts/build.mjs`): node --test --test-concurrency=1 test/e2e/history.e2e.test.mjs
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import { openActivity, chatFrame, editorTab, launchWorkbench, pickQuickItem, repoRoot, runCommand, recordFailure, screenshot } from './harness/index.mjs';
import { DEMO_AGENT, SLOW_MS, newDemoSession, promptInChat } from './harness/subchats.mjs';
import { descendantsOf, descriptionFacts, waitForTree } from './harness/sessionTree.mjs';
import { closeAllEditors, openThroughFileDialog, recordSidebarPhrases, reloadWindow } from './harness/windowActions.mjs';

const TEST_TIMEOUT_MS = 240_000;
// Generous: other e2e runs may share the two cores; every wait still ends as soon as its condition holds.
const TRACES = ['claude2-parallel.jsonl', 'qwen-single.jsonl'];

/** @type {Awaited<ReturnType<typeof launchWorkbench>>} */
let workbench;
/** A transcript of one answer of LONG_LINES numbered lines (~250,000 characters), streamed a line per chunk. */
const LONG_LINES = 5_000;
const longLine = (i) => `Line ${String(i).padStart(4, '0')} of the long answer, with *some* words.\n\n`;
function longAnswerTranscript() {
  const line = (dir, msg) => JSON.stringify({ dir, msg: { jsonrpc: '2.0', ...msg } });
  const chunk = (i) => line('agent->client', { method: 'session/update', params: { sessionId: 'long-1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: longLine(i) } } } });
  return [
    line('client->agent', { id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } }),
    line('agent->client', { id: 1, result: { sessionId: 'long-1' } }),
    line('client->agent', { id: 2, method: 'session/prompt', params: { sessionId: 'long-1', prompt: [{ type: 'text', text: 'Write the long answer' }] } }),
    ...Array.from({ length: LONG_LINES }, (_, i) => chunk(i)),
    line('agent->client', { id: 2, result: { stopReason: 'end_turn' } }),
  ].join('\n') + '\n';
}

before(async () => {
  const files = Object.fromEntries(TRACES.map((name) => [`traces/${name}`, readFileSync(join(repoRoot, 'test/fixtures/traces', name), 'utf8')]));
  files['traces/long-answer.jsonl'] = longAnswerTranscript();
  // 100,000 characters of text in memory per connection: the long answer's start goes to disk; the others fit.
  workbench = await launchWorkbench({ files, settings: { 'subchats.demoAgent.pace': 20, 'subchats.history.textInMemoryMegabytes': 0.1 } });
  await openActivity(workbench.page, 'Subchats');
});
after(async () => {
  await workbench?.close();
});
afterEach(async (t) => {
  // Leave a picture of the failure for review.
  if (t.passed === false) await recordFailure(workbench, `failed-history-${t.name}`);
});

/** `subchats replay FILE --json` of the built CLI: sessions in tree pre-order. */
function replay(file) {
  return JSON.parse(execFileSync(process.execPath, [join(repoRoot, 'dist/cli.js'), 'replay', file, '--json'], { encoding: 'utf8' }));
}

/** The tree `replay --json` describes, as the session tree should show it: label, nesting, state. */
function expectedTree({ sessions }) {
  const byId = new Map(sessions.map((s) => [s.id, s]));
  const depth = (s) => (s.parentId && byId.has(s.parentId) ? depth(byId.get(s.parentId)) + 1 : 0);
  return sessions.map((s) => ({
    depth: depth(s),
    label: s.label,
    // A transcript is read-only: finished sessions keep their state, anything else shows as disconnected.
    state: s.state === 'idle' ? idleLabel(s.stopReason) : 'Disconnected',
  }));
}

/** The tree's label of an idle state (src/presentation's presentState). */
function idleLabel(stopReason) {
  const known = { end_turn: 'Done', cancelled: 'Cancelled', error: 'Failed', refusal: 'Refused', max_tokens: 'Stopped: max tokens', max_turn_requests: 'Stopped: turn limit' };
  if (!stopReason) return 'Idle';
  return Object.hasOwn(known, stopReason) ? known[stopReason] : `Idle (${stopReason.replace(/_/g, ' ')})`;
}

/** Descendants of the connection row `label` whose description starts with `status`. */
function connectionTree(rows, label, status) {
  const index = rows.findIndex((row) => row.level === 1 && row.label === label && row.description.startsWith(status));
  assert.notEqual(index, -1, `no connection "${label}" (${status}) in the tree: ${JSON.stringify(rows.map((r) => r.label))}`);
  return descendantsOf(rows, index);
}

/** The subtree of the session row `label`: that row (depth 0) and its descendants. */
function sessionSubtree(rows, label) {
  const index = rows.findIndex((row) => row.label === label);
  assert.notEqual(index, -1, `no session "${label}" in the tree: ${JSON.stringify(rows.map((r) => r.label))}`);
  return [{ ...rows[index], depth: 0 }, ...descendantsOf(rows, index).map((row) => ({ ...row, depth: row.depth + 1 }))];
}

/** The labels of the connections (top-level rows), sorted. */
const connectionLabels = (rows) => rows.filter((row) => row.level === 1).map((row) => row.label).sort();

/** What must survive a reload: labels, nesting, state icons and the description without elapsed times. */
const durable = (rows) => rows.map((row) => ({ depth: row.depth, label: row.label, icon: row.icon, facts: descriptionFacts(row.description) }));

/** The extension's history folder (context.storageUri/history) inside this server's user data. */
function historyFiles() {
  const storage = join(workbench.server.stateDir, 'user-data/User/workspaceStorage');
  const found = [];
  for (const entry of readdirSync(storage, { recursive: true })) {
    const path = String(entry);
    if (/(^|\/)subchats\.subchats\/history\/[^/]+\.jsonl$/.test(path)) found.push(join(storage, path));
  }
  return found;
}



test('an opened transcript shows the tree `subchats replay` computes and its root chat with child cards', { timeout: TEST_TIMEOUT_MS }, async () => {
  const { page } = workbench;
  for (const name of TRACES) {
    const file = join(workbench.workspace, 'traces', name);
    const report = replay(file);
    const expected = expectedTree(report);
    assert.ok(expected.some((s) => s.depth > 0), `${name} has children`);

    await closeAllEditors(page);
    await openThroughFileDialog(page, 'Subchats: Open Transcript', file);
    await waitForTree(page, (rows) => {
      const shown = connectionTree(rows, name, 'transcript (read-only)').map((row) => ({ depth: row.depth, label: row.label, state: row.description.split(' · ')[0] }));
      assert.deepEqual(shown, expected);
    });

    // The root's chat opens by itself, with a card for each child where it was spawned.
    const chat = chatFrame(page);
    const root = report.sessions.find((s) => s.parentId === null);
    for (const child of report.sessions.filter((s) => s.parentId === root.id)) {
      const card = chat.locator(`subchats-child-card[data-session-id=${JSON.stringify(child.id)}]`).first();
      await card.waitFor({ timeout: SLOW_MS });
      assert.equal((await card.locator('.sc-card-title').textContent())?.trim(), child.label);
    }
    await screenshot(page, `e2e-transcript-${name.replace(/\.jsonl$/, '')}`);
  }
});

test('opened transcripts and their chat come back after a reload', { timeout: TEST_TIMEOUT_MS }, async () => {
  const { page } = workbench;
  // The previous test left the last transcript's root chat open.
  const last = TRACES.at(-1);
  const report = replay(join(workbench.workspace, 'traces', last));
  const child = report.sessions.find((s) => s.parentId !== null);
  await chatFrame(page).locator(`subchats-child-card[data-session-id=${JSON.stringify(child.id)}]`).first().waitFor();

  await reloadWindow(page);
  await waitForTree(page, (rows) => {
    for (const name of TRACES) {
      const expected = expectedTree(replay(join(workbench.workspace, 'traces', name))).map((s) => [s.depth, s.label]);
      assert.deepEqual(connectionTree(rows, name, 'transcript (read-only)').map((row) => [row.depth, row.label]), expected);
    }
  }, { timeoutMs: SLOW_MS });
  // The restored panel finds its transcript again (it is reopened under the same connection id).
  const restored = chatFrame(page);
  await restored.locator(`subchats-child-card[data-session-id=${JSON.stringify(child.id)}]`).first().waitFor({ timeout: SLOW_MS });
  await screenshot(page, 'e2e-transcript-after-reload');
});

test('after a reload a finished session comes back from workspace storage, with its chat panel', { timeout: TEST_TIMEOUT_MS }, async () => {
  const { page } = workbench;
  const title = 'Show the subagents';
  await closeAllEditors(page);
  const chat = await newDemoSession(page);
  await promptInChat(chat, title);
  await chat.locator('subchats-permission').getByRole('button', { name: 'Allow', exact: true }).first().click();
  const reviewerAsk = chat.locator('subchats-permission', { hasText: 'review' }).first();
  await reviewerAsk.waitFor({ timeout: SLOW_MS });
  await reviewerAsk.getByRole('button', { name: 'Allow', exact: true }).click();
  const live = await waitForTree(
    page,
    (rows) => {
      const tree = sessionSubtree(rows, title);
      assert.deepEqual(tree.map((row) => [row.depth, row.label, row.icon]), [
        [0, title, 'pass'],
        [1, 'Explorer', 'pass'],
        [2, 'Scout', 'pass'],
        [1, 'Reviewer', 'pass'],
      ]);
      return durable(tree);
    },
    { timeoutMs: SLOW_MS },
  );
  assert.match(live[0].facts, /^Done/);

  const shown = await recordSidebarPhrases(page, ['Restoring sessions…', 'No agent sessions yet.']);
  await reloadWindow(page);
  await waitForTree(page, (rows) => {
    assert.deepEqual(connectionLabels(rows), [DEMO_AGENT, ...TRACES].sort());
    assert.deepEqual(durable(connectionTree(rows, DEMO_AGENT, 'history')), live);
  }, { timeoutMs: SLOW_MS });
  // Until the stored sessions are in, the view says it restores them, never that there are none.
  assert.ok(!(await shown()).includes('No agent sessions yet.'), `the view showed ${JSON.stringify(await shown())} after the reload`);

  // The tree came from the connection's transcript in context.storageUri, which lives in the user data dir.
  const stored = historyFiles();
  assert.equal(stored.length, 1, `one stored connection: ${stored.join(', ')}`);
  assert.deepEqual(expectedTree(replay(stored[0])).map((s) => [s.depth, s.label]), live.map((row) => [row.depth, row.label]));

  // The WebviewPanelSerializer brings the chat back, showing the session as it ended.
  await editorTab(page, title).waitFor({ timeout: SLOW_MS });
  // Other restored panels may be in front: bring this chat forward.
  await editorTab(page, title).click();
  const restored = chatFrame(page);
  await restored.locator('subchats-session-bar [aria-current="page"]', { hasText: title }).waitFor({ timeout: SLOW_MS });
  await restored.locator('subchats-child-card', { hasText: 'Explorer' }).first().waitFor();
  await restored.locator('subchats-child-card', { hasText: 'Reviewer' }).first().waitFor();
  await restored.getByText('That is the whole tour.').waitFor();
  await screenshot(page, 'e2e-history-after-reload');
});

test('a run interrupted by a reload comes back disconnected with the text it had streamed', { timeout: TEST_TIMEOUT_MS }, async () => {
  const { page } = workbench;
  const title = '/long answer, please';
  const streamed = 'Sentence 30 of a very long answer.';
  await closeAllEditors(page);
  const chat = await newDemoSession(page);
  await promptInChat(chat, title);
  await chat.getByText(streamed).waitFor({ timeout: SLOW_MS });
  // Still running when the window reloads (the answer streams for 20 s at least).
  await waitForTree(page, (rows) => assert.match(sessionSubtree(rows, title)[0].description, /^Running/), { timeoutMs: SLOW_MS });

  await reloadWindow(page);
  await waitForTree(page, (rows) => {
    assert.deepEqual(connectionLabels(rows), [DEMO_AGENT, DEMO_AGENT, ...TRACES].sort());
    const interrupted = sessionSubtree(rows, title);
    assert.equal(interrupted.length, 1);
    assert.match(interrupted[0].description, /^Disconnected/);
    assert.equal(interrupted[0].icon, 'debug-disconnect');
    // The earlier finished connection is still there, unchanged.
    assert.deepEqual(sessionSubtree(rows, 'Show the subagents').map((row) => row.icon), ['pass', 'pass', 'pass', 'pass']);
    assert.equal(rows.filter((row) => row.label === DEMO_AGENT && row.description.startsWith('history')).length, 2);
  }, { timeoutMs: SLOW_MS });

  await editorTab(page, title).waitFor({ timeout: SLOW_MS });
  // Other restored panels may be in front: bring this chat forward.
  await editorTab(page, title).click();
  const restored = chatFrame(page);
  await restored.locator('subchats-session-bar [role="status"]', { hasText: 'Disconnected' }).waitFor({ timeout: SLOW_MS });
  await restored.getByText(streamed).waitFor();
  await screenshot(page, 'e2e-history-disconnected-after-reload');
});

test('a long answer past the text kept in memory shows its end; scrolling up reads its start back from disk, every line once', { timeout: TEST_TIMEOUT_MS }, async () => {
  const { page } = workbench;
  await closeAllEditors(page);
  await openThroughFileDialog(page, 'Subchats: Open Transcript', join(workbench.workspace, 'traces', 'long-answer.jsonl'));
  const chat = chatFrame(page);
  const message = chat.locator('subchats-message[role-kind="agent"]').first();
  await message.getByText(`Line ${LONG_LINES - 1} of the long answer`).waitFor({ timeout: SLOW_MS });
  const note = message.locator('.sc-earlier');
  assert.match(await note.innerText(), /^0\.2 MB earlier in this message is kept on disk/, 'opening the chat read nothing back');
  await screenshot(page, 'e2e-long-answer-end');

  /**
   * Watches the message each frame until it holds at least `value` lines (`lines`: a long message is drawn a frame's
   * budget at a time), or its note shows less than `value` characters earlier (`earlier`: a page was read back).
   * Resolves with what it read then, or with undefined after `ms`.
   */
  const watch = (kind, value, ms) =>
    message.evaluate(
      (element, [kind, value, ms]) =>
        new Promise((resolve) => {
          const giveUp = setTimeout(() => resolve(undefined), ms);
          const check = () => {
            const found =
              kind === 'lines'
                ? (element.querySelector('subchats-markdown')?.textContent?.match(/Line \d{4}/g)?.length ?? 0)
                : Number(element.querySelector('.sc-earlier')?.getAttribute('data-earlier-chars') ?? 0);
            if (kind === 'lines' ? found < value : found >= value) return void requestAnimationFrame(check);
            clearTimeout(giveUp);
            resolve(found);
          };
          check();
        }),
      [kind, value, ms],
    );
  const drawn = async (count) => (await watch('lines', count, 30_000)) !== undefined;

  // The user turns the wheel over the chat (it stops following its end) and drags the scrollbar to the top, where
  // the note is: the page before the text is read back and goes below the note, which stays in view; turning the
  // wheel up there reads the next.
  const box = await page.locator('iframe.webview.ready >> visible=true').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  let pages = 0;
  for (let end = Number(await note.getAttribute('data-earlier-chars')); end > 0; pages++) {
    assert.ok(await drawn(LONG_LINES - Math.ceil(end / longLine(0).length)), 'the part of the message the chat holds is drawn within 30 s');
    if (pages === 0) {
      // The chat has settled at its end (10 frames unchanged), as the component tests wait (settledAtEnd.ts): the
      // wheel is then the user's look back, not a race with the chat's own first layout.
      await note.evaluate(
        (element) =>
          new Promise((resolve) => {
            const scroller = element.closest('subchats-transcript[data-following]');
            let last = '';
            let stable = 0;
            const check = () => {
              const now = `${scroller.scrollTop}:${scroller.scrollHeight}`;
              stable = now === last ? stable + 1 : 0;
              last = now;
              if (scroller.scrollTop > 0 && stable >= 10) resolve(undefined);
              else requestAnimationFrame(check);
            };
            check();
          }),
      );
      await page.mouse.wheel(0, -100);
      await chat.locator('subchats-transcript[data-following="false"]').waitFor();
      await note.evaluate((element) => (element.closest('subchats-transcript[data-following]').scrollTop = 0));
    } else {
      await page.mouse.wheel(0, -100);
    }
    const chars = await watch('earlier', end, 20_000);
    assert.ok(chars !== undefined, `a page before character ${end} was read back within 20 s of scrolling up to the note`);
    end = chars;
  }
  assert.ok(pages >= 2, `read back in ${pages} pages`);
  await message.getByText('Line 0000 of the long answer').waitFor();
  assert.ok(await drawn(LONG_LINES), 'the whole message is drawn within 30 s');
  const numbers = await message.evaluate((element) => [...(element.querySelector('subchats-markdown')?.textContent ?? '').matchAll(/Line (\d{4})/g)].map((m) => Number(m[1])));
  assert.deepEqual(numbers, Array.from({ length: LONG_LINES }, (_, i) => i), 'every line once, in order');
  await screenshot(page, 'e2e-long-answer-start');
});
