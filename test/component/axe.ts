// Runs axe-core (the accessibility engine browsers' dev tools use) in a chat page. It is evaluated through the
// DevTools protocol, as a console would run it: the page's CSP stays as strict as VS Code's.
import axe from 'axe-core';
import type { Page } from 'playwright-core';

export interface AxeViolation {
  readonly rule: string;
  readonly impact: string;
  /** One line per node: its CSS path and what axe found wrong. */
  readonly nodes: readonly string[];
}

/** What axe finds against its default rules (WCAG 2.x A and AA, and its best practices). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const engine = (window as unknown as { axe: typeof axe }).axe;
    const results = await engine.run(document, { resultTypes: ['violations'] });
    return results.violations.map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? 'unknown',
      nodes: violation.nodes.map((node) => `${node.target.join(' ')}: ${(node.failureSummary ?? '').replace(/\s+/g, ' ').trim()}`),
    }));
  });
}

/** Violations as lines a failing test prints: rule, impact, and each node's target. */
export function describeViolations(violations: readonly AxeViolation[]): string {
  return violations.map((v) => `${v.rule} (${v.impact}, ${v.nodes.length} node${v.nodes.length === 1 ? '' : 's'})\n${v.nodes.map((n) => `    ${n}`).join('\n')}`).join('\n');
}
