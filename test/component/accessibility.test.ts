// Accessibility of the chat in real Chromium: axe-core finds no violation in VS Code's light, dark and high
// contrast themes (their variables captured from real VS Code), over chats that show every part: child cards
// expanded and collapsed, tool calls, a permission request, the Changes list, a plan, code blocks, the `/` list
// open, and the states Running, Needs you, Done and Failed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { axeViolations, describeViolations } from './axe';
import { FeedLink } from './feedLink';
import { capturedTheme, useHarness, type ChatPage, type ThemeName } from './harness';
import type { WorkspaceRoots } from '../../src/protocol/webviewMessages';
import { showHeaderDetails } from './headerDetails';
import { CHILD_A, PATHS_WORKSPACE, ROOT, parentWithChildren, pathsScene, withPendingPermission } from './scenes';
import { SceneWire } from './wireScenes';

const harness = useHarness();

const THEMES: readonly ThemeName[] = ['light', 'dark', 'high-contrast', 'high-contrast-light'];

const COMMANDS = [
  { name: 'review', description: 'Review the current changes' },
  { name: 'test', description: 'Run the tests', hint: 'which suite' },
  { name: 'explain', description: 'Explain the selected code' },
];

/** The root at work: its children done, failed, waiting for the user and running. */
function workingParent(): SceneWire {
  const w = parentWithChildren();
  w.toolCall(ROOT, 'lint1', { title: 'npm run lint', kind: 'execute', status: 'failed' });
  w.child(ROOT, 'sess_done', { title: 'Lint fixer' });
  w.say('sess_done', 'agent', 'Fixed two lint errors.');
  w.endTurn('sess_done');
  w.child(ROOT, 'sess_failed', { title: 'Flaky test hunter' });
  w.failTurn('sess_failed', 'The agent process exited');
  w.child(ROOT, 'sess_asks', { title: 'Build cleaner' });
  w.say('sess_asks', 'agent', 'The build folder is stale.');
  withPendingPermission(w, 'sess_asks');
  // An agent that says so itself: its state is `requires_action`.
  w.child(ROOT, 'sess_waits', { title: 'Release notes writer', state: { state: 'requires_action' } });
  return w;
}

/** A root waiting for the user's answer (Needs you), with its plan. */
function askingRoot(): SceneWire {
  // With the agent's modes: their picker sits by the prompt box's buttons.
  const w = new SceneWire().root(ROOT, 'Clean up', { modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code' }] } });
  w.prompt(ROOT, 'Clean the build and rebuild');
  w.plan(ROOT, [
    { content: 'Clean the build', status: 'in_progress', priority: 'high' },
    { content: 'Rebuild', status: 'pending', priority: 'medium' },
  ]);
  return withPendingPermission(w, ROOT);
}

/** A root whose turn ended (Done) with an answer in Markdown: code, a table, a link, a quote. */
function finishedRoot(): SceneWire {
  const w = new SceneWire().root(ROOT, 'Explain the parser');
  w.prompt(ROOT, 'How does the parser handle `\\n`?');
  w.say(ROOT, 'agent', [
    'The **tokenizer** splits lines first:',
    '',
    '```ts',
    'export function lines(text: string): string[] {',
    "  return text.split('\\n');",
    '}',
    '```',
    '',
    '| Input | Tokens |',
    '| --- | --- |',
    '| `a\\nb` | 2 |',
    '',
    '> Windows line ends are normalised before.',
    '',
    'See [the docs](https://example.com/docs) and `src/parser/tokenizer.ts`.',
  ].join('\n'));
  return w.endTurn(ROOT);
}

/** A root whose turn failed. */
function failedRoot(): SceneWire {
  const w = new SceneWire().root(ROOT, 'Upgrade the dependencies');
  w.prompt(ROOT, 'Upgrade everything');
  w.say(ROOT, 'agent', 'Running `npm outdated`.');
  return w.failTurn(ROOT, 'Internal error: the model is overloaded');
}

interface Scene {
  readonly name: string;
  readonly wire: () => SceneWire;
  /** The workspace the host sends with the snapshot (paths read relative to it). */
  readonly workspace?: WorkspaceRoots;
  /** Opens what the scene shows beyond the first render. */
  readonly open?: (chat: ChatPage) => Promise<void>;
}

const SCENES: readonly Scene[] = [
  {
    name: 'working parent, cards and lists open',
    wire: workingParent,
    open: async ({ page }) => {
      await page.getByRole('button', { name: 'Expand subagent Test investigator' }).click();
      await page.locator(`subchats-child-card[data-session-id="${CHILD_A}"]`).getByText('Looking at the tokenizer tests.').waitFor();
      await page.locator('details.sc-thought > summary').first().click();
      const exec = page.locator('[data-tool-call-id="exec1"]');
      await exec.getByRole('button', { name: /Expand tool call/ }).click();
      await exec.locator('pre.sc-terminal').waitFor();
      await page.locator('[data-tool-call-id="edit1"]').getByRole('button', { name: /Show changes/ }).click();
      await page.locator('[data-tool-call-id="edit1"] .sc-diff-line').first().waitFor();
      const read = page.locator('[data-tool-call-id="read1"]');
      await read.getByRole('button', { name: /Expand tool call/ }).click();
      await read.getByRole('button', { name: /Show raw input/ }).click();
      await showHeaderDetails(page);
      const changes = page.locator('subchats-app > header subchats-changes');
      await changes.locator('.sc-changes-toggle').click();
      await changes.locator('[data-path]').first().waitFor();
      await page.getByRole('button', { name: 'Show session outline' }).click();
      await page.locator('subchats-outline').getByRole('tree').waitFor();
      // The transcript is virtualized: everything opened still fits the page, down to the last card.
      await page.locator('subchats-child-card[data-session-id="sess_waits"]').waitFor();
    },
  },
  { name: 'root asks permission', wire: askingRoot },
  { name: 'root done', wire: finishedRoot },
  {
    name: 'the / list open',
    wire: () => finishedRoot().update(ROOT, { sessionUpdate: 'available_commands_update', availableCommands: COMMANDS }),
    open: async ({ page }) => {
      const input = page.locator('#sc-prompt-input');
      await input.pressSequentially('/');
      await input.press('ArrowDown');
      await page.locator('.sc-completion [aria-selected="true"]').waitFor();
    },
  },
  { name: 'root failed', wire: failedRoot },
  {
    name: 'paths: locations, sent files, links in the answer, a chip, the Changes list',
    wire: pathsScene,
    workspace: PATHS_WORKSPACE,
    open: async (chat) => {
      await chat.send({ type: 'addAttachment', attachment: { kind: 'selection', path: 'src/b.ts', startLine: 3, endLine: 7 } });
      await chat.page.locator('.sc-chip').waitFor();
      await showHeaderDetails(chat.page);
      const changes = chat.page.locator('subchats-app > header subchats-changes');
      await changes.locator('.sc-changes-toggle').click();
      await changes.locator('[data-path]').first().waitFor();
    },
  },
];

describe('accessibility', () => {
  for (const theme of THEMES) {
    test(`axe finds no violation in the ${theme} theme`, async () => {
      const found: string[] = [];
      for (const scene of SCENES) {
        const chat = await harness().openChat({ theme, height: 4000 });
        await FeedLink.showing(chat, scene.wire().store, ROOT, scene.workspace);
        await chat.page.locator('#sc-prompt-input').waitFor();
        await scene.open?.(chat);
        const violations = await axeViolations(chat.page);
        if (violations.length > 0) found.push(`${scene.name}:\n${describeViolations(violations)}`);
        assert.deepEqual(await chat.cspViolations(), []);
        await chat.close();
      }
      assert.equal(found.length, 0, `axe violations in the ${theme} theme:\n${found.join('\n')}`);
    });
  }
});

describe('data colours', () => {
  test('a terminal colour is checked again when VS Code switches the theme: readable in dark, replaced in light', async () => {
    const chat = await harness().openChat({ theme: 'dark' });
    await FeedLink.showing(chat, parentWithChildren().store, ROOT);
    const exec = chat.page.locator('[data-tool-call-id="exec1"]');
    await exec.getByRole('button', { name: /Expand tool call/ }).click();
    const orange = exec.locator('pre.sc-terminal span', { hasText: 'warn' });
    await orange.waitFor();
    assert.equal(await orange.evaluate((el) => getComputedStyle(el).color), 'rgb(255, 135, 0)');
    assert.equal(await orange.getAttribute('data-readable'), null);

    // What VS Code does on a theme change: new variables on the root element, new theme classes on the body.
    const light = capturedTheme('light');
    await chat.page.evaluate(({ variables, bodyClasses }) => {
      for (const [name, value] of Object.entries(variables)) document.documentElement.style.setProperty(name, value);
      document.body.className = bodyClasses.join(' ');
    }, { variables: light.variables, bodyClasses: [...light.bodyClasses] });
    await exec.locator('pre.sc-terminal span[data-readable]', { hasText: 'warn' }).waitFor();
    assert.notEqual(await orange.evaluate((el) => getComputedStyle(el).color), 'rgb(255, 135, 0)');
    assert.deepEqual(await axeViolations(chat.page).then((found) => found.filter((v) => v.rule === 'color-contrast')), []);
    await chat.close();
  });
});

/** The announcer element: its live region is in a closed shadow root. */
type Announcer = HTMLElement & { readonly region: HTMLElement | null };

describe('announcements', () => {
  test('a finished answer is announced once in a polite live region; the streamed chunks before it are not', async () => {
    const chat = await harness().openChat();
    const w = new SceneWire().root(ROOT, 'Explain');
    w.prompt(ROOT, 'Why does the build fail?');
    const link = await FeedLink.showing(chat, w.store, ROOT);
    // The region sits in the announcer's closed shadow root: read it through the element.
    const announcer = chat.page.locator('subchats-announcer');
    const region = {
      getAttribute: (name: string) => announcer.evaluate((el, attribute) => (el as Announcer).region?.getAttribute(attribute) ?? null, name),
      textContent: () => announcer.evaluate((el) => (el as Announcer).region?.textContent ?? null),
    };
    assert.equal(await region.getAttribute('aria-live'), 'polite');
    assert.equal(await region.getAttribute('aria-atomic'), 'true');
    assert.equal(await region.textContent(), '');
    assert.equal(await chat.page.getByText('The lockfile').count(), 0);

    w.chunk(ROOT, 'agent', 'The **lockfile** ');
    await link.flush();
    await chat.page.getByText('lockfile').waitFor();
    w.chunk(ROOT, 'agent', 'is stale: run `npm ci`.');
    await link.flush();
    await chat.page.getByText('is stale').waitFor();
    assert.equal(await region.textContent(), '', 'nothing is said while the answer streams');

    w.endTurn(ROOT);
    await link.flush();
    await chat.page.locator('subchats-session-bar .sc-state', { hasText: 'Done' }).waitFor();
    assert.equal(await region.textContent(), 'Agent: The lockfile is stale: run npm ci.');
    assert.equal(await chat.page.getByText('run npm ci').count(), 1, 'the page\'s text holds the answer once');

    // The next turn empties the region; a turn that ends without words says how it ended.
    w.prompt(ROOT, 'Run it');
    await link.flush();
    await chat.page.locator('subchats-session-bar .sc-state', { hasText: 'Running' }).waitFor();
    assert.equal(await region.textContent(), '');
    w.toolCall(ROOT, 'ci', { title: 'npm ci', kind: 'execute', status: 'completed' });
    w.endTurn(ROOT, 'cancelled');
    await link.flush();
    await chat.page.locator('subchats-session-bar .sc-state', { hasText: 'Cancelled' }).waitFor();
    assert.equal(await region.textContent(), "The agent's turn ended: Cancelled.");
    await chat.close();
  });

  test('a chat opened after its turn ended says nothing', async () => {
    const chat = await harness().openChat();
    await FeedLink.showing(chat, finishedRoot().store, ROOT);
    await chat.page.locator('subchats-session-bar .sc-state', { hasText: 'Done' }).waitFor();
    assert.equal(await chat.page.locator('subchats-announcer').evaluate((el) => (el as Announcer).region?.textContent), '');
    await chat.close();
  });
});

describe('forced colours', () => {
  test('the selected completion and code blocks stay visible when the system forces its colours', async () => {
    const chat = await harness().openChat({ theme: 'dark' });
    await chat.page.emulateMedia({ forcedColors: 'active' });
    await FeedLink.showing(chat, finishedRoot().update(ROOT, { sessionUpdate: 'available_commands_update', availableCommands: COMMANDS }).store, ROOT);
    const input = chat.page.locator('#sc-prompt-input');
    await input.pressSequentially('/');
    await input.press('ArrowDown');
    const options = chat.page.locator('.sc-completion [role="option"]');
    await chat.page.locator('#sc-completion-1[aria-selected="true"]').waitFor();
    // Each row's outline, and the colour it is seen on: its own background where it has one, else what is behind it.
    const [first, selected, third] = await options.evaluateAll((rows) =>
      rows.map((row) => {
        let background = 'none';
        for (let node: Element | null = row; node && background === 'none'; node = node.parentElement) {
          // Transparent in any colour (forced colours keep the alpha of a transparent background, not its colour).
          const color = getComputedStyle(node).backgroundColor;
          if (!/^rgba\(.*,\s*0\)$/.test(color)) background = color;
        }
        return { background, outline: getComputedStyle(row).outlineStyle };
      }),
    );
    assert.notEqual(selected!.background, first!.background, 'the selected row has its own system colour');
    assert.notEqual(selected!.outline, 'none');
    assert.deepEqual([first!.outline, third!.outline], ['none', 'none']);
    assert.equal(first!.background, third!.background);

    // A code block keeps a border where its background colour is forced away.
    const pre = chat.page.locator('subchats-markdown pre').first();
    assert.equal(await pre.evaluate((el) => getComputedStyle(el).borderTopStyle), 'solid');
    assert.notEqual(await pre.evaluate((el) => getComputedStyle(el).borderTopWidth), '0px');
    await chat.close();
  });
});
