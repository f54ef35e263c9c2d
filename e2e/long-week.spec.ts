import { expect, test } from '@playwright/test';
import { shot } from './support/shots';
import { currentWorkspaceId, signUpOverHttp } from './support/users';

/** Monday 00:00 UTC of last week (entries may not lie in the future). */
function lastMonday(): Date {
  const now = new Date();
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7) - 7);
  return day;
}

test.describe('a long week', () => {
  test('a week of 200 entries renders a few rows at a time, scrolls to its last day and edits an entry there', async ({
    page,
  }) => {
    await signUpOverHttp(page.request);
    const ws = `/api/v1/workspaces/${await currentWorkspaceId(page.request)}`;
    const project = await (await page.request.post(`${ws}/projects`, { data: { name: 'Atlas' } })).json();
    const monday = lastMonday();
    const ids: string[] = [];
    // 29 entries on Monday down to 28 on Sunday, ten minutes apart from 08:00 UTC.
    for (let i = 0; i < 200; i++) {
      const start = monday.getTime() + (i % 7) * 86_400_000 + 8 * 3_600_000 + Math.floor(i / 7) * 600_000;
      const response = await page.request.post(`${ws}/time-entries`, {
        data: {
          start: new Date(start).toISOString(),
          end: new Date(start + 540_000).toISOString(),
          note: `Entry ${i}`,
          projectId: i % 2 === 0 ? project.id : null,
        },
      });
      expect(response.status()).toBe(201);
      ids.push((await response.json()).id);
    }

    await page.goto('/homepage/timesheet');
    await page.getByRole('button', { name: 'Previous week' }).click();
    const rows = page.getByTestId('entry-row');
    await expect(rows.first()).toBeVisible();
    // Only the rows near the viewport are in the page.
    expect(await rows.count()).toBeLessThan(80);
    const sunday = new Date(monday.getTime() + 6 * 86_400_000).toISOString().slice(0, 10);
    await expect(page.getByLabel(`Total of ${sunday}`)).toBeVisible();
    await shot(page, 'long-week-top');

    // The list is newest first: Monday is the last day, its earliest entry the last row.
    const mondayKey = monday.toISOString().slice(0, 10);
    const lastDay = page.getByRole('region', { name: `Day ${mondayKey}` });
    await expect(lastDay).toHaveCount(0);
    // Rows are measured as they show, so the end may move once: scroll until the last row is there.
    const toEnd = () => page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect
      .poll(async () => {
        await toEnd();
        return lastDay
          .getByRole('textbox', { name: 'Entry note' })
          .last()
          .inputValue({ timeout: 1000 })
          .catch(() => '');
      })
      .toBe('Entry 0');
    await expect(lastDay.getByLabel(`Total of ${mondayKey}`)).toBeVisible();
    const note = lastDay.getByRole('textbox', { name: 'Entry note' }).last();
    await note.fill('Entry 0, reviewed');
    await note.press('Enter');
    await expect
      .poll(async () => {
        const { items } = await (await page.request.get(`${ws}/time-entries?limit=1000`)).json();
        return items.find((e: { id: string }) => e.id === ids[0])?.note;
      })
      .toBe('Entry 0, reviewed');
    // Its project picker opens in place and sets the project.
    const picker = lastDay.getByRole('button', { name: 'Project / task: Atlas' }).last();
    await picker.click();
    await expect(lastDay.getByRole('combobox', { name: 'Project / task' })).toBeFocused();
    await shot(page, 'long-week-last-day');
    await page.keyboard.press('Escape');
    await expect(lastDay.getByRole('button', { name: 'Project / task: Atlas' }).last()).toBeFocused();

    // Back at the top and down again, the edit is still shown.
    // Scrolled away, the row holding the keyboard focus stays in the page, and only it of its day.
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(page.getByLabel(`Total of ${sunday}`)).toBeVisible();
    await expect(lastDay.getByRole('button', { name: 'Project / task: Atlas' })).toBeFocused();
    await expect(lastDay.getByTestId('entry-row')).toHaveCount(1);
    await toEnd();
    await expect(lastDay.getByRole('textbox', { name: 'Entry note' }).last()).toHaveValue('Entry 0, reviewed');
  });
});
