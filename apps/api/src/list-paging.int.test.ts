import { describe, expect, it } from 'vitest';
import { joinWorkspace, type SignedUp, signUp, useTestApp } from '../test/harness.js';

/**
 * Lists page by cursor (issue 34): each page's `nextCursor` goes on exactly where the page ended,
 * in every order a list offers, even when rows are added before it between pages (where an offset
 * would show a row twice); a cursor beside an offset, or one no list gave, is refused.
 */
const ctx = useTestApp();
const ws = (who: SignedUp, rest: string) => `/api/v1/workspaces/${who.workspaceId}${rest}`;

async function ok(who: SignedUp, method: 'GET' | 'POST', url: string, body?: object) {
  const response = await ctx.call(method, url, who.cookie, body);
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
  return response.json();
}

type Page = { items: { id?: string; userId?: string }[]; nextCursor: string | null; total: number };
const idOf = (item: Page['items'][number]) => item.id ?? item.userId ?? '';

/** Every page of `path` (with its query) by cursor, `limit` at a time; `between` runs after the first page. */
async function walk(who: SignedUp, path: string, limit: number, between?: () => Promise<void>) {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const page: Page = await ok(
      who,
      'GET',
      ws(who, `${path}${separator}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`),
    );
    ids.push(...page.items.map(idOf));
    cursor = page.nextCursor;
    pages += 1;
    if (pages === 1 && between) await between();
  } while (cursor);
  return { ids, pages };
}

const whole = async (who: SignedUp, path: string) =>
  ((await ok(who, 'GET', ws(who, `${path}${path.includes('?') ? '&' : '?'}limit=500`))) as Page).items.map(idOf);

describe('paging by cursor', () => {
  it('walks projects, clients, tags and members page by page, each row once, in each order', async () => {
    const owner = await signUp(ctx.t.app);
    // Names in mixed case: the order is by name, whatever the case.
    for (const name of ['Delta', 'alpha', 'Alpine', 'charlie', 'Bravo', 'echo', 'ECHOES']) {
      await ok(owner, 'POST', ws(owner, '/projects'), { name });
      await ok(owner, 'POST', ws(owner, '/clients'), { name: `${name} Ltd` });
    }
    const list = await ok(owner, 'POST', ws(owner, '/tag-lists'), { name: 'Kinds' });
    for (const name of ['urgent', 'Review', 'design', 'Backend', 'qa']) {
      await ok(owner, 'POST', ws(owner, `/tag-lists/${list.id}/tags`), { name });
    }
    for (const role of ['member', 'manager', 'admin', 'member'] as const)
      await joinWorkspace(ctx.t, owner.workspaceId, role);

    for (const path of [
      '/projects',
      '/projects?sort=created&order=desc',
      '/projects?order=desc',
      '/clients',
      '/clients?sort=created',
      '/tags',
      '/members',
    ]) {
      const all = await whole(owner, path);
      const { ids, pages } = await walk(owner, path, 2);
      expect(ids, path).toEqual(all);
      expect(pages, path).toBe(Math.ceil(all.length / 2));
    }
  });

  it('goes on after its row when rows are added before it between pages', async () => {
    const owner = await signUp(ctx.t.app);
    for (const name of ['Kilo', 'Lima', 'Mike', 'November', 'Oscar']) {
      await ok(owner, 'POST', ws(owner, '/projects'), { name });
    }
    const before = await whole(owner, '/projects');
    const { ids } = await walk(owner, '/projects', 2, async () => {
      await ok(owner, 'POST', ws(owner, '/projects'), { name: 'Alpha' });
      await ok(owner, 'POST', ws(owner, '/projects'), { name: 'Bravo' });
    });
    // The walk sees every earlier row once (an offset would have shown Lima again, and skipped none of the new ones).
    expect(ids).toEqual(before);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('refuses a cursor with an offset, and one no list gave', async () => {
    const owner = await signUp(ctx.t.app);
    await ok(owner, 'POST', ws(owner, '/projects'), { name: 'One' });
    await ok(owner, 'POST', ws(owner, '/projects'), { name: 'Two' });
    const first: Page = await ok(owner, 'GET', ws(owner, '/projects?limit=1'));
    expect(first.nextCursor).toEqual(expect.any(String));
    const both = await ctx.call(
      'GET',
      ws(owner, `/projects?limit=1&offset=1&cursor=${first.nextCursor}`),
      owner.cookie,
    );
    expect([both.statusCode, both.json().error.fields.cursor]).toEqual([
      422,
      'Page by cursor or by offset, not both: leave offset out with a cursor.',
    ]);
    for (const bad of ['bm9wZQ', Buffer.from('["a"]').toString('base64url'), '%%%']) {
      const response = await ctx.call('GET', ws(owner, `/members?cursor=${bad}`), owner.cookie);
      expect([response.statusCode, response.json().error.fields?.cursor], bad).toEqual([
        422,
        'This cursor is not one this list gave.',
      ]);
    }
    // The last page says so.
    const last: Page = await ok(owner, 'GET', ws(owner, `/projects?limit=1&cursor=${first.nextCursor}`));
    expect([last.items.length, last.nextCursor]).toEqual([1, null]);
  });
});
