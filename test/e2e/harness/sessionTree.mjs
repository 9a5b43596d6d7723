// Reads the Subchats session tree in the side bar as data (label, nesting, state) so tests can compare
// it with what `subchats replay --json` computes, and waits until it shows what a test expects.
import { setTimeout as delay } from 'node:timers/promises';

const ROWS = '.part.sidebar .monaco-list-row[role="treeitem"]';
// Time parts of a description ("12s", "1m 5s", "2h 3m", "... ago", "since 13:06:09") differ from one run to the next.
const ELAPSED = /^(\d+(s|m \d+s|h \d+m)( ago)?|since \d\d:\d\d:\d\d)$/;

/**
 * @typedef {{ level: number, expanded: boolean | null, label: string, description: string, icon: string | null }} TreeRow
 * `icon` is the codicon id without the `codicon-` prefix (e.g. `pass`, `debug-disconnect`).
 */

/**
 * The rendered rows of the side bar tree, top to bottom. The tree is virtualized: keep test trees small
 * enough to fit the view (a few dozen rows).
 * @param {import('playwright-core').Page} page
 * @returns {Promise<TreeRow[]>}
 */
export async function readTreeRows(page) {
  const rows = await page.locator(ROWS).evaluateAll((elements) =>
    elements.map((row) => {
      const expanded = row.getAttribute('aria-expanded');
      const iconClasses = [...(row.querySelector('.custom-view-tree-node-item-icon')?.classList ?? [])];
      const icon = iconClasses.find((name) => name.startsWith('codicon-') && !name.startsWith('codicon-modifier-'));
      return {
        index: Number(row.getAttribute('data-index')),
        level: Number(row.getAttribute('aria-level')),
        expanded: expanded === null ? null : expanded === 'true',
        label: row.querySelector('.label-name')?.textContent ?? '',
        description: row.querySelector('.label-description')?.textContent ?? '',
        icon: icon ? icon.slice('codicon-'.length) : null,
      };
    }),
  );
  // The list positions rows absolutely; the DOM order is not the visual one.
  return rows.sort((a, b) => a.index - b.index).map(({ index: _index, ...row }) => row);
}

/**
 * The rows below `rows[index]` (its descendants), each with its depth relative to that row's children (0).
 * @param {TreeRow[]} rows
 * @param {number} index
 */
export function descendantsOf(rows, index) {
  const top = rows[index];
  const out = [];
  for (const row of rows.slice(index + 1)) {
    if (row.level <= top.level) break;
    out.push({ ...row, depth: row.level - top.level - 1 });
  }
  return out;
}

/** What a description says apart from elapsed times: state, tool and subagent counts. */
export function descriptionFacts(description) {
  return description
    .split(' · ')
    .filter((part) => !ELAPSED.test(part))
    .join(' · ');
}

/**
 * Polls the tree until `check(rows)` stops throwing and returns what it returned; after `timeoutMs`
 * rethrows its last error, so a failure reads like the assertion that never held.
 * @template T
 * @param {import('playwright-core').Page} page
 * @param {(rows: TreeRow[]) => T} check
 * @param {{ timeoutMs?: number }} [options]
 * @returns {Promise<T>}
 */
export async function waitForTree(page, check, { timeoutMs = 60_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await readTreeRows(page);
    try {
      return check(rows);
    } catch (error) {
      if (Date.now() >= deadline) throw error;
    }
    await delay(100);
  }
}
