// Subchats-specific steps shared by the end-to-end scenarios.
import { chatFrame, pickQuickItem, runCommand } from './workbench.mjs';

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

/** Types a prompt into a chat's prompt box and sends it with Enter. */
export async function promptInChat(chat, text) {
  const box = chat.locator('textarea');
  await box.fill(text);
  await box.press('Enter');
}
