// Subchats-specific steps shared by the end-to-end scenarios.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { serverLogFiles } from './codeServer.mjs';
import { chatFrame, escapeRegExp, focusMoves, pickQuickItem, runCommand } from './workbench.mjs';

/** The demo agent's label in the New Session picker. */
export const DEMO_AGENT = 'Demo Agent (built in)';
/** Generous bound for steps that wait on a whole demo run on a loaded 2-core machine. */
export const SLOW_MS = 60_000;

/** Palette 'New Session' with the demo agent; resolves with the session's chat once it takes prompts. */
export async function newDemoSession(page) {
  await runCommand(page, 'Subchats: New Session');
  await pickQuickItem(page, DEMO_AGENT);
  const chat = chatFrame(page);
  await chat.locator('textarea').waitFor({ timeout: SLOW_MS });
  return chat;
}

/**
 * Palette 'New Session' with a configured agent (subchats.agents), picked once the picker lists it. Its name is
 * typed first: the list is virtualised, so a row below the fold is not in the page until the filter brings it up.
 */
export async function newSessionWith(page, agentName) {
  const row = page.locator('.quick-input-widget .quick-input-list .label-name', { hasText: new RegExp(`^${agentName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) });
  await runCommand(page, 'Subchats: New Session');
  const filter = page.locator('.quick-input-widget input[placeholder="Start a session with which agent?"]');
  await filter.waitFor({ timeout: SLOW_MS });
  await filter.fill(agentName);
  await row.first().waitFor({ timeout: SLOW_MS });
  await pickQuickItem(page, agentName);
}

/**
 * Opens the chat header's details (changes, timeline, outline), which show on demand; already open, leaves them.
 * @param {import('playwright-core').FrameLocator} chat
 */
export async function showChatDetails(chat) {
  const toggle = chat.locator('subchats-session-bar').getByRole('button', { name: 'Session details' });
  if ((await toggle.getAttribute('aria-expanded', { timeout: SLOW_MS })) !== 'true') await toggle.click();
  await chat.locator('#sc-header-details:not([hidden])').waitFor({ state: 'attached' });
}

/**
 * Picks a subagent in an open Subchats session picker (Cancel Session, Reveal in Session Tree…), where its row
 * reads `↳ <name>` indented under its parent.
 */
export async function pickSubagent(page, name) {
  try {
    await page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`↳ ${escapeRegExp(name)}$`) }) })
      .click();
  } catch (error) {
    // Seen once in CI: the picker closed before the click. Say where the focus went meanwhile.
    throw new Error(`could not pick ${name} in the session picker; the focus moved:\n${await focusMoves(page)}`, { cause: error });
  }
}

/** Types a prompt into a chat's prompt box and sends it with Enter. */
export async function promptInChat(chat, text) {
  const box = chat.locator('textarea');
  await box.fill(text);
  await box.press('Enter');
}

/**
 * What went over the wire so far, as the "Subchats Protocol" log shows it (one `<agent> → {json}` or
 * `<agent> ← {json}` line per message), read from the log file the extension host writes in the server's
 * user data: `{ dir: 'client->agent' | 'agent->client', msg }` in order. A line still being written is left out.
 * @param {{ stateDir: string }} server from launchWorkbench()
 */
export function protocolLog(server) {
  const messages = [];
  for (const file of serverLogFiles(server.stateDir, 'Subchats Protocol.log')) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const arrow = /^\S+ \S+ \[\w+\] .*? ([→←]) (\{.*)$/.exec(line);
      if (!arrow) continue;
      try {
        messages.push({ dir: arrow[1] === '→' ? 'client->agent' : 'agent->client', msg: JSON.parse(arrow[2]) });
      } catch {
        // the last line, half written
      }
    }
  }
  return messages;
}

/**
 * Waits until `find(messages)` (the protocol log so far) returns something truthy and returns it; after
 * `timeoutMs` fails naming `what`. The log file trails the wire by a flush, so this waits on it rather than
 * reading it once.
 * @template T
 * @param {{ stateDir: string }} server
 * @param {(messages: ReturnType<typeof protocolLog>) => T | undefined | null | false} find
 * @param {string} what
 * @returns {Promise<T>}
 */
export async function waitForProtocolLog(server, find, what, timeoutMs = SLOW_MS) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find(protocolLog(server));
    if (found) return found;
    if (Date.now() >= deadline) throw new Error(`the Subchats Protocol log did not show ${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
