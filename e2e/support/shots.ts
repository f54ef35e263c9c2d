import type { Page } from '@playwright/test';

/** A full-page screenshot for a person to look at, when E2E_SHOTS_DIR names a folder; nothing otherwise. */
export async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SHOTS_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}
