import { expect, test } from '@playwright/test';
import { currentWorkspaceId, signUpOverHttp } from './support/users';

/** Monday 00:00 UTC of last week (entries may not lie in the future). */
function lastMonday(): Date {
  const now = new Date();
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7) - 7);
  return day;
}

test('an inline edit shows before the server answers, and one the server refuses is undone with the reason', async ({
  page,
}) => {
  await signUpOverHttp(page.request);
  const ws = `/api/v1/workspaces/${await currentWorkspaceId(page.request)}`;
  const monday = lastMonday();
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const start = monday.getTime() + 8 * 3_600_000 + i * 1_800_000;
    const response = await page.request.post(`${ws}/time-entries`, {
      data: {
        start: new Date(start).toISOString(),
        end: new Date(start + 1_200_000).toISOString(),
        note: `Entry ${i}`,
      },
    });
    expect(response.status()).toBe(201);
    ids.push((await response.json()).id);
  }
  const stored = async () => {
    const { items } = await (await page.request.get(`${ws}/time-entries?limit=10`)).json();
    return (items as { id: string; durationSeconds: number }[])
      .sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id))
      .map((e) => e.durationSeconds);
  };

  await page.goto('/homepage/timesheet');
  await page.getByRole('button', { name: 'Previous week' }).click();
  const mondayKey = monday.toISOString().slice(0, 10);
  const total = page.getByLabel(`Total of ${mondayKey}`);
  await expect(total).toBeVisible();
  const before = (await total.textContent()) ?? '';
  // Newest first: the first row is the last entry (09:00).
  const duration = page.getByRole('textbox', { name: 'Entry duration' }).first();

  // The server's answer is held back: the change shows all the same, and the server stores it once let through.
  let letThrough = () => {};
  const held = new Promise<void>((resolve) => {
    letThrough = resolve;
  });
  let patches = 0;
  await page.route(`**${ws}/time-entries/*`, async (route) => {
    if (route.request().method() !== 'PATCH') return route.fallback();
    patches += 1;
    await held;
    await route.continue();
  });
  await duration.fill('0:50');
  await duration.press('Enter');
  await expect(total).not.toHaveText(before);
  const shown = (await total.textContent()) ?? '';
  expect(patches).toBe(1);
  expect(await stored()).toEqual([1200, 1200, 1200]);
  letThrough();
  await expect.poll(stored).toEqual([1200, 1200, 3000]);
  await expect(total).toHaveText(shown);
  await page.unroute(`**${ws}/time-entries/*`);

  // A duration the server refuses: shown at once, then taken back with the server's reason.
  await duration.fill('200:00');
  await duration.press('Enter');
  const alert = page.getByRole('alert').filter({ hasText: 'Not saved: your change was undone' });
  await expect(alert).toContainText('A duration can be at most 168 hours.');
  await expect(total).toHaveText(shown);
  await expect(duration).toHaveValue('0:50:00');
  expect(await stored()).toEqual([1200, 1200, 3000]);
});
