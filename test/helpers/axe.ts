/** Accessibility check of a page with axe-core (issue 4: no serious or critical violation on any screen). */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** One axe run: serious and critical violations as "rule: target (help)" lines. */
async function analyze(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} (${v.help})`));
}

/**
 * The serious and critical violations on the page, as "rule: target" lines (empty when none). A
 * violation is counted when a second run 0.7 s later finds it again: axe computes contrast from the
 * colours of that instant, and an element in the middle of a fade (the multilingual banner's
 * rotating texts, `transition-opacity`) reads as too faint only while it fades.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  const first = await analyze(page);
  if (first.length === 0) return first;
  await page.waitForTimeout(700);
  const again = new Set(await analyze(page));
  return first.filter((v) => again.has(v));
}
