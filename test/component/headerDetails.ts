// The chat header's details (changes, timeline, outline, how the state came about) show on demand: tests that
// use them open them first, as a user does.
import type { Page } from 'playwright-core';

export async function showHeaderDetails(page: Page): Promise<void> {
  const toggle = page.locator('subchats-session-bar').getByRole('button', { name: 'Session details' });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await page.locator('#sc-header-details:not([hidden])').waitFor({ state: 'attached' });
}
