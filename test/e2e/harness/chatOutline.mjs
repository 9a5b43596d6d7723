// Reads what a chat panel shows as plain data: its header (state, and its details opened: changes, children's
// timeline) and every transcript entry in order, each as its kind and visible text without clock or elapsed
// times, so two runs of the same scenario can be compared line by line. The transcript is virtualized: the
// reader scrolls each entry into view and waits for it to render.

import { showChatDetails } from './subchats.mjs';

/**
 * @typedef {{ header: string[], entries: string[][] }} ChatOutline
 * Each entry is a list of lines: its kind first (`agent`, `tool execute`, `child`, `permission`, …).
 */

/**
 * The outline of the root chat in a chat frame. `openCards`: expand every tool call card (its content and
 * terminal) and every subagent card (its whole chat, nested cards too) first, so they are part of it.
 * `workspace`: this folder's path reads `<workspace>` (each workbench has its own).
 * @param {import('playwright-core').FrameLocator} chat
 * @param {{ openCards?: boolean, workspace?: string }} [options]
 * @returns {Promise<ChatOutline>}
 */
export async function readChatOutline(chat, { openCards = false, workspace } = {}) {
  // The header's details (how the state came about, changes, timeline) are drawn only while shown.
  await showChatDetails(chat);
  const outline = await chat.locator('subchats-app').evaluate(readInPage, { openCards });
  const normal = (line) => withoutTimes(workspace ? line.replaceAll(workspace, '<workspace>') : line);
  return { header: outline.header.map(normal), entries: outline.entries.map((lines) => lines.map(normal)) };
}

// Clock times (12:03:04, 12:03), ISO stamps and durations (12s, 1m 5s, 2h 3m) change from run to run.
const TIMES = [/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, /\b\d{1,2}:\d\d(:\d\d)?( ?[AP]M)?\b/g, /\b\d+h \d+m\b|\b\d+m \d+s\b|\b\d+s\b/g];

/**
 * How a timeline row's time splits ("working 3s · waiting on you 2s · idle 1s"): a part under a second is left
 * out, so which parts show depends on the machine's pace, not on what the agents did.
 */
const SPENT_PARTS = /\((?:under a second|(?:working|waiting on you|idle) <time>(?: · (?:working|waiting on you|idle) <time>)*)\)/g;

function withoutTimes(line) {
  return TIMES.reduce((text, pattern) => text.replace(pattern, '<time>'), line).replace(SPENT_PARTS, '(<time spent>)');
}

/**
 * Runs inside the chat's webview (serialized by Playwright: no closures over this module).
 * @param {Element} app
 * @param {{ openCards: boolean }} options
 */
async function readInPage(app, { openCards }) {
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const icon = (element) => [...element.classList].find((name) => name.startsWith('codicon-') && !name.startsWith('codicon-modifier-'))?.slice('codicon-'.length) ?? '';
  const text = (element) => (element?.innerText ?? element?.textContent ?? '').replace(/\s+/g, ' ').trim();
  const settled = async (element) => {
    for (const lit of [element, ...element.querySelectorAll('*')]) if (lit.updateComplete) await lit.updateComplete;
  };

  const header = [];
  const bar = app.querySelector(':scope > header subchats-session-bar');
  header.push(`session ${text(bar?.querySelector('nav'))}`, `state ${text(bar?.querySelector('.sc-state'))}`);
  const usage = bar?.querySelector('[title="Context usage"]');
  if (usage) header.push(`usage ${text(usage)}`);
  // The root's pickers sit by the prompt box's buttons; they are the header's settings all the same.
  for (const setting of app.querySelectorAll(':scope > subchats-prompt-box subchats-session-settings .sc-setting')) {
    const select = setting.querySelector('select');
    header.push(`setting ${text(setting.querySelector('.sc-muted')) || text(setting)}: ${select ? select.selectedOptions[0]?.textContent?.trim() : setting.querySelector('input')?.checked}`);
  }
  const explanation = bar?.querySelector('.sc-state-explanation');
  if (explanation) header.push(`explanation ${text(explanation)}`);
  const changes = app.querySelector(':scope > header subchats-changes .sc-changes-toggle');
  if (changes) header.push(`changes ${text(changes)}`);
  for (const row of app.querySelectorAll(':scope > header subchats-timeline .sc-timeline-row')) {
    const phases = [...row.querySelectorAll('rect')].map((rect) => rect.getAttribute('class'));
    header.push(`timeline ${row.getAttribute('aria-label')} [${phases.join(' ')}]`);
  }

  const entries = await readTranscript(app.querySelector('subchats-transcript.sc-root-transcript'));
  return { header, entries };

  /** Each entry of a transcript as lines; an opened child card holds its own transcript's lines, indented. */
  async function readTranscript(transcript) {
    const virtualizer = transcript?.querySelector(':scope > lit-virtualizer');
    if (!virtualizer) return [[text(transcript)]];
    const items = virtualizer.items;
    const out = [];
    for (let index = 0; index < items.length; index++) {
      const slot = await renderedEntry(virtualizer, index);
      await settled(slot);
      if (openCards) {
        // This entry's own cards only: nested ones are opened when their transcript is read.
        const toolToggle = ':scope > subchats-tool-call > .sc-entry > .sc-card > .sc-card-head > button[aria-expanded="false"]:not([disabled])';
        const childToggle = 'subchats-child-card > .sc-entry > .sc-card > .sc-card-head > .sc-expand[aria-expanded="false"]';
        const closed = () => slot.querySelectorAll(`${toolToggle}, :scope > ${childToggle}, :scope > subchats-tool-call > .sc-entry > ${childToggle}`);
        for (const toggle of closed()) toggle.click();
        // A subagent card opens through the chat's store, a render later.
        await until(() => closed().length === 0, `the cards of entry ${index} to open`);
        await settled(slot);
      }
      const lines = await describeEntry(slot.firstElementChild);
      if (lines.length > 0) out.push(lines);
    }
    return out;
  }

  /**
   * Scrolls entry `index` into view until the virtualizer has rendered it. Scrolled again on each try: a
   * virtualizer that was just rendered (an opened card's) first has no layout, then only estimated sizes.
   */
  function renderedEntry(virtualizer, index) {
    const { id, kind } = virtualizer.items[index];
    return until(() => {
      try {
        // Read as a person scrolls: a scroll with no user intent before it is the chat's own, and a chat that
        // follows the end takes it back there (pinned), so an entry above the end would never stay in view.
        virtualizer.dispatchEvent(new WheelEvent('wheel', { bubbles: true, deltaY: -1 }));
        virtualizer.element(index)?.scrollIntoView({ block: 'start' });
      } catch (error) {
        if (!(error instanceof TypeError)) throw error;
      }
      return virtualizer.querySelector(`:scope > [data-entry-id="${CSS.escape(id)}"]`);
    }, `entry ${index} (${kind}) of a transcript to render`);
  }

  /** What `check` returns once it is truthy, checked once per frame for up to 10 s. */
  async function until(check, what) {
    const deadline = performance.now() + 10_000;
    for (;;) {
      const result = check();
      if (result) return result;
      if (performance.now() > deadline) throw new Error(`waited 10 s for ${what}`);
      await frame();
    }
  }

  async function describeEntry(element) {
    switch (element?.localName) {
      case 'subchats-message': {
        const role = element.getAttribute('role-kind');
        return role === 'thought' ? ['thought'] : [role ?? 'message', text(element.querySelector('.sc-bubble'))];
      }
      case 'subchats-tool-call':
        return toolCall(element);
      case 'subchats-child-card':
        return childCard(element);
      case 'subchats-permission':
        return ['permission', text(element)];
      case 'subchats-plan':
        return ['plan', ...[...element.querySelectorAll('li')].map((item) => `${item.dataset.status}: ${text(item)}`)];
      case 'subchats-session-message':
        return ['session message', text(element)];
      case 'subchats-notice':
        return ['notice', text(element)];
      case undefined:
        return [];
      default:
        return [element.localName, text(element)];
    }
  }

  async function toolCall(element) {
    const card = element.querySelector(':scope > .sc-entry > .sc-card');
    const head = card.querySelector(':scope > .sc-card-head');
    const kind = head.querySelector('[role="img"]')?.getAttribute('aria-label');
    const lines = [`tool ${kind}`, `${text(head.querySelector('.sc-grow'))} [${text(head.querySelector('.sc-status'))}]`];
    const progress = head.querySelector('.sc-progress');
    if (progress) lines.push(`progress ${text(progress)}`);
    for (const location of card.querySelectorAll(':scope > .sc-locations button')) lines.push(`location ${text(location)}`);
    // A diff row says what kind of change it is by its icon (new file or changed file).
    const diffRow = (row) => `${[...row.querySelectorAll(':scope > .codicon')].map(icon).filter((name) => name !== 'blank').join(' ')} ${text(row)}`;
    for (const diff of card.querySelectorAll('subchats-diff')) lines.push(`diff ${diffRow(diff.querySelector('.sc-diff-summary'))}`);
    for (const patch of card.querySelectorAll('subchats-patch')) lines.push(...[...patch.querySelectorAll('.sc-diff-summary')].map((row) => `patch ${diffRow(row)}`));
    for (const body of card.querySelectorAll(':scope > .sc-card-body')) {
      for (const part of body.children) {
        if (part.localName === 'subchats-diff' || part.localName === 'subchats-patch') continue;
        if (part.localName === 'subchats-terminal') {
          const command = part.querySelector('code');
          if (command) lines.push(`terminal ${text(command)}`);
          lines.push(`output ${text(part.querySelector('pre'))}`, `exit ${text(part.querySelector(':scope > div > div:last-child'))}`);
        } else lines.push(`body ${text(part)}`);
      }
    }
    const child = element.querySelector(':scope > .sc-entry > subchats-child-card');
    return child ? [...lines, ...(await childCard(child))] : lines;
  }

  async function childCard(element) {
    const card = element.querySelector('.sc-card');
    const head = card.querySelector(':scope > .sc-card-head');
    const meta = [...card.querySelectorAll(':scope > .sc-child-meta > span')].filter((span) => !span.title.startsWith('Time working'));
    const lines = [`child ${text(head.querySelector('.sc-card-title'))} [${text(head.querySelector('.sc-state'))}]`, `meta ${meta.map(text).join(' · ')}`];
    const changes = card.querySelector(':scope > subchats-changes .sc-changes-toggle');
    if (changes) lines.push(`changes ${text(changes)}`);
    for (const item of card.querySelectorAll(':scope > .sc-preview > li')) lines.push(`preview ${text(item)}`);
    for (const ask of card.querySelectorAll(':scope > subchats-permission')) lines.push(`asks ${text(ask)}`);
    const nested = card.querySelector(':scope > .sc-nested > subchats-transcript');
    if (nested) for (const entry of await readTranscript(nested)) lines.push(...entry.map((line) => `  ${line}`));
    return lines;
  }
}
