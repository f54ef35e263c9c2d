import type { Page } from '@playwright/test';

/** A full-page screenshot for a person to look at, when E2E_SHOTS_DIR names a folder; nothing otherwise. */
export async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SHOTS_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

/** Screenshots at 1440 and 1024 pixels wide (when E2E_SHOTS_DIR is set), then back to the first width. */
export async function shotsAtWidths(page: Page, name: string): Promise<void> {
  if (!process.env.E2E_SHOTS_DIR) return;
  const before = page.viewportSize();
  for (const width of [1440, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page, `${name}-${width}`);
  }
  if (before) await page.setViewportSize(before);
}
