import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The WCAG 2.2 AA rule set we hold every screen to. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** One line per violation and node, so a failure names the rule, the element and axe's own reason. */
function formatViolations(violations: Awaited<ReturnType<AxeBuilder['analyze']>>['violations']): string {
  return violations
    .flatMap((v) =>
      v.nodes.map((node) => `${v.impact} ${v.id}: ${node.target.join(' ')}\n    ${node.failureSummary ?? ''}`),
    )
    .join('\n');
}

/**
 * Runs axe-core on the page as it stands (open dialogs and panels included) and fails on any
 * serious or critical WCAG 2.2 AA violation. The check is soft, so one run reports every screen;
 * moderate and minor violations are logged but do not fail.
 */
export async function expectNoSeriousViolations(page: Page, name: string): Promise<void> {
  // A dialog still fading in shows blended colours; judge what settles, not a frame of a transition.
  // Endless animations (loaders) never finish and are left out.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const other = violations.filter((v) => !serious.includes(v));
  if (other.length > 0) console.log(`[axe] ${name}: below serious\n${formatViolations(other)}`);
  expect.soft(serious, `${name}: serious or critical axe violations\n${formatViolations(serious)}`).toEqual([]);
}
