import { expect, test } from '@playwright/test';
import { allow } from './support/time';
import { signUpOverHttp, workspaceApi } from './support/users';

test.describe('the project picker past the first few hundred projects', () => {
  test('names an entry’s project beyond the first answer and finds another one by typing, in at most 3 requests on load', async ({
    page,
  }) => {
    test.setTimeout(allow(180_000));
    await signUpOverHttp(page.request);
    const ws = await workspaceApi(page.request);
    // 300 projects fill the pickers' first answer; the two after them by name are left out of it.
    for (let i = 1; i <= 300; i++) {
      const created = await page.request.post(`${ws}/projects`, {
        data: { name: `Project ${String(i).padStart(3, '0')}` },
      });
      expect(created.status()).toBe(201);
    }
    const yonder = await (await page.request.post(`${ws}/projects`, { data: { name: 'Yonder' } })).json();
    const zeppelin = await (await page.request.post(`${ws}/projects`, { data: { name: 'Zeppelin' } })).json();
    await page.request.post(`${ws}/projects/${zeppelin.id}/tasks`, { data: { name: 'Landing' } });
    const start = new Date(Date.now() - 2 * 3600_000);
    const entry = await page.request.post(`${ws}/time-entries`, {
      data: {
        start: start.toISOString(),
        end: new Date(start.getTime() + 1800_000).toISOString(),
        projectId: yonder.id,
      },
    });
    expect(entry.status()).toBe(201);

    const onLoad: string[] = [];
    page.on('request', (request) => {
      const { pathname, search } = new URL(request.url());
      if (/\/(project-picker|projects|tasks|tag-lists)(\/|$)/.test(pathname)) onLoad.push(pathname + search);
    });
    await page.goto('/homepage/timesheet');

    // The entry's project is not in the first answer, yet its row names it.
    const row = page.getByTestId('entry-row').first();
    await expect(row.locator('input[value="Yonder"]').or(row.getByText('Yonder', { exact: true }))).toBeVisible();
    await expect.poll(() => onLoad.filter((url) => url.includes('ids=')).length).toBe(1);
    expect(onLoad.length).toBeLessThanOrEqual(3);

    // Typing finds a project the first answer left out, with its task.
    const picker = page.getByRole('combobox', { name: 'Project / task' }).first();
    await picker.click();
    await expect(page.getByRole('option', { name: 'Project 001', exact: true })).toBeVisible();
    await expect(page.getByRole('option', { name: 'Zeppelin', exact: true })).toHaveCount(0);
    await picker.fill('zepp');
    await page.getByRole('option', { name: 'Zeppelin › Landing' }).click();
    await expect(picker).toHaveValue('Zeppelin › Landing');
    expect(onLoad.filter((url) => url.includes('search=zepp')).length).toBeGreaterThan(0);
  });
});
