// The demo agent's tour at ACP v1 and at ACP v2 in real VS Code, one workbench each (this file pins both
// versions itself): once the whole tour is done, the session tree and the root chat show the same thing at
// both versions, apart from the differences v2 itself brings, each listed below with why.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openActivity, launchWorkbench, screenshot } from './harness/index.mjs';
import { readChatOutline } from './harness/chatOutline.mjs';
import { descriptionFacts, waitForTree } from './harness/sessionTree.mjs';
import { newDemoSession, promptInChat, SLOW_MS } from './harness/subchats.mjs';

/**
 * What v2 shows differently by design. Each rule rewrites the matching chat lines of each version into one
 * common form; a rule that no longer matches on both sides fails the test, so the list stays true.
 */
const INHERENT = [
  {
    why: 'a v2 permission has a title and description of its own (the demo agent words them "Allow: …?"); v1 shows the tool call\'s title',
    v1: /^Permission requested: (.+?) (Allowed|Denied|Answered): (.+)$/,
    v2: /^Permission requested: Allow: (.+?)\? The demo agent waits for your answer before it goes on\. (Allowed|Denied|Answered): (.+)$/,
    as: 'Permission requested: $1 $2: $3',
  },
  {
    why: 'the same v2 permission title, in the latest-entries preview of the child that asked',
    v1: /^preview Permission: (.+) \(([^()]+)\)$/,
    v2: /^preview Permission: Allow: (.+)\? \(([^()]+)\)$/,
    as: 'preview Permission: $1 ($2)',
  },
  {
    why: 'a v2 diff names the changed files and carries a git patch, not the texts: no +/− counts on the row, no "Open diff" (the header and card Changes still count the lines)',
    v1: /^diff new-file (\S+) \+(\d+) −0 \2 lines added, 0 lines removed Open diff$/,
    v2: /^patch new-file (\S+) add$/,
    as: 'new file $1',
  },
  {
    why: 'at v2 the agent reports its own state (state_update); at v1 the client infers "needs you" from the question and "resumed" from the answer',
    v1: /^explanation Needs you <time>, then resumed <time>, then reported done <time>$/,
    v2: /^explanation Reported needs you <time>, then reported running <time>, then reported done <time>$/,
    as: 'explanation needs you, running again, done',
  },
  {
    why: 'a v1 command runs in a client terminal, shown as the executable and arguments Subchats ran; a v2 agent runs it in its own terminal and reports its command line',
    v1: /^terminal \/\S+ -e (.+)$/,
    v2: /^terminal node -e "(.+)"$/,
    as: 'terminal node -e $1',
  },
];

/** Applies the rules to one version's outline; returns it with the rules each line matched. */
function common(outline, version, used) {
  const rewrite = (line) => {
    // Lines of an opened subagent card's chat are indented.
    const [, indent, text] = /^( *)(.*)$/.exec(line);
    for (const [index, rule] of INHERENT.entries()) {
      if (!rule[version].test(text)) continue;
      used[version].add(index);
      return indent + text.replace(rule[version], rule.as);
    }
    return line;
  };
  return { header: outline.header.map(rewrite), entries: outline.entries.map((lines) => lines.map(rewrite)) };
}

const TOUR = 'Show me what subagents can do';

/** Runs the whole tour at one ACP version and returns what the tree and the root chat show at its end. */
async function tourAt(protocolVersion) {
  const workbench = await launchWorkbench({
    files: { 'README.md': '# Demo workspace\n' },
    settings: { 'subchats.protocolVersion': protocolVersion, 'subchats.demoAgent.pace': 10 },
  });
  const { page } = workbench;
  try {
    await openActivity(page, 'Subchats');
    const chat = await newDemoSession(page);
    await promptInChat(chat, TOUR);
    // The root's edit asks first, then the Reviewer's write (in its card): both answered in the chat. The
    // Reviewer is answered once the Explorer is done, so both runs report their children in the same order.
    const question = (file) => chat.locator('subchats-permission', { hasText: file }).first();
    const allow = (file) => question(file).getByRole('button', { name: 'Allow', exact: true }).click({ timeout: SLOW_MS });
    // While its question waits, the root needs the user (v1: the client infers it; v2: the agent reports it).
    await question('notes.md').waitFor({ timeout: SLOW_MS });
    const asking = await waitForTree(page, (tree) => {
      assert.equal(tree[1]?.icon, 'bell-dot', 'the root needs you');
      return tree;
    }, { timeoutMs: SLOW_MS });
    await allow('notes.md');
    await chat.locator('subchats-child-card', { hasText: 'Explorer' }).locator('.sc-state[data-state="idle"]').waitFor({ timeout: SLOW_MS });
    await allow('review.md');
    // The tour is over when every session is done, in the tree and in the chat.
    const rows = await waitForTree(page, (tree) => {
      const sessions = tree.filter((row) => row.level > 1);
      assert.equal(sessions.length, 4, 'the root, Explorer, its Scout and Reviewer');
      for (const row of sessions) assert.equal(row.icon, 'pass', `${row.label} is done`);
      return tree;
    }, { timeoutMs: SLOW_MS });
    await chat.locator('subchats-session-bar .sc-state[data-state="idle"]', { hasText: 'Done' }).waitFor({ timeout: SLOW_MS });
    await screenshot(page, `e2e-v${protocolVersion}-tour-end`);
    // As the tour leaves it (subagent cards show their latest entries), then with every card opened.
    const outline = await readChatOutline(chat, { workspace: workbench.workspace });
    const opened = await readChatOutline(chat, { openCards: true, workspace: workbench.workspace });
    const facts = (tree) => tree.map((row) => ({ ...row, description: descriptionFacts(row.description) }));
    return { asking: facts(asking), rows: facts(rows), outline, opened };
  } catch (error) {
    await screenshot(page, `failed-v${protocolVersion}-tour`).catch(() => undefined);
    throw error;
  } finally {
    await workbench.close();
  }
}

test('the demo tour shows the same tree and chat at ACP v1 and v2', { timeout: 150_000 }, async () => {
  const v1 = await tourAt('1');
  const v2 = await tourAt('2');
  assert.deepEqual(v2.asking, v1.asking, 'the same tree while the root asks');
  assert.deepEqual(v2.rows, v1.rows, 'the same tree');
  const used = { v1: new Set(), v2: new Set() };
  assert.deepEqual(common(v2.outline, 'v2', used), common(v1.outline, 'v1', used), 'the same chat');
  assert.deepEqual(common(v2.opened, 'v2', used), common(v1.opened, 'v1', used), 'the same chat with every card opened');
  for (const [index, rule] of INHERENT.entries()) {
    assert.ok(used.v1.has(index) && used.v2.has(index), `no longer different (remove the rule): ${rule.why}`);
  }
});
