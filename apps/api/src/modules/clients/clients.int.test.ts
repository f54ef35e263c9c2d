import { describe, expect, it } from 'vitest';
import { signUp, useTestApp } from '../../../test/harness.js';
import { membersRepository } from '../members/members.repository.js';

const ctx = useTestApp();
const call: typeof ctx.call = (...args) => ctx.call(...args);

describe('clients', () => {
  it('lists, reads, edits, archives, restores and deletes clients; projects keep going without one', async () => {
    const owner = await signUp(ctx.t.app);
    const ws = `/api/v1/workspaces/${owner.workspaceId}`;
    for (const name of ['Zeta', 'alpha', 'Beta']) await call('POST', `${ws}/clients`, owner.cookie, { name });
    const list = (await call('GET', `${ws}/clients?limit=2`, owner.cookie)).json();
    expect(list).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(list.items.map((c: { name: string }) => c.name)).toEqual(['alpha', 'Beta']);
    expect((await call('GET', `${ws}/clients?search=et`, owner.cookie)).json().total).toBe(2);
    expect((await call('GET', `${ws}/clients?sort=created&order=desc`, owner.cookie)).json().items[0].name).toBe(
      'Beta',
    );

    const zeta = list.items.length && (await call('GET', `${ws}/clients?search=zeta`, owner.cookie)).json().items[0];
    const edited = await call('PATCH', `${ws}/clients/${zeta.id}`, owner.cookie, {
      address: '2 Side St',
      currency: 'gbp',
      note: 'VIP',
    });
    expect(edited.json()).toMatchObject({ name: 'Zeta', address: '2 Side St', currency: 'GBP', note: 'VIP' });
    expect((await call('GET', `${ws}/clients/${zeta.id}`, owner.cookie)).json().currency).toBe('GBP');
    const badCurrency = await call('PATCH', `${ws}/clients/${zeta.id}`, owner.cookie, { currency: 'dollars' });
    expect(badCurrency.json().error.fields.currency).toBe('Currency must be a three-letter code such as USD.');
    const dup = await call('POST', `${ws}/clients`, owner.cookie, { name: 'ZETA' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.message).toBe('A client with this name already exists.');

    const project = (
      await call('POST', `${ws}/projects`, owner.cookie, { name: 'For Zeta', clientId: zeta.id })
    ).json();
    expect((await call('GET', `${ws}/clients/${zeta.id}`, owner.cookie)).json().projectCount).toBe(1);
    expect((await call('GET', `${ws}/projects?clientId=${zeta.id}`, owner.cookie)).json().total).toBe(1);

    expect((await call('POST', `${ws}/clients/${zeta.id}/archive`, owner.cookie)).json().archived).toBe(true);
    expect((await call('GET', `${ws}/clients`, owner.cookie)).json().total).toBe(2);
    expect((await call('POST', `${ws}/clients/${zeta.id}/restore`, owner.cookie)).json().archived).toBe(false);

    expect((await call('DELETE', `${ws}/clients/${zeta.id}`, owner.cookie)).statusCode).toBe(204);
    expect((await call('GET', `${ws}/clients/${zeta.id}`, owner.cookie)).statusCode).toBe(404);
    expect((await call('GET', `${ws}/projects/${project.id}`, owner.cookie)).json()).toMatchObject({
      name: 'For Zeta',
      clientId: null,
    });
  });

  it('refuses to delete a client when its projects would clash with projects without a client', async () => {
    const owner = await signUp(ctx.t.app);
    const ws = `/api/v1/workspaces/${owner.workspaceId}`;
    const client = (await call('POST', `${ws}/clients`, owner.cookie, { name: 'Acme' })).json();
    await call('POST', `${ws}/projects`, owner.cookie, { name: 'Website', clientId: client.id });
    await call('POST', `${ws}/projects`, owner.cookie, { name: 'Website' });
    const refused = await call('DELETE', `${ws}/clients/${client.id}`, owner.cookie);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(
      'A project of “Acme” has the same name as a project without a client; rename one of them first.',
    );
    expect((await call('GET', `${ws}/clients/${client.id}`, owner.cookie)).statusCode).toBe(200);
  });

  it('lets members read clients but not change them; guests see none', async () => {
    const owner = await signUp(ctx.t.app);
    const ws = `/api/v1/workspaces/${owner.workspaceId}`;
    const client = (await call('POST', `${ws}/clients`, owner.cookie, { name: 'Acme' })).json();
    for (const role of ['member', 'guest'] as const) {
      const user = await signUp(ctx.t.app);
      await membersRepository.add(ctx.t.db, { workspaceId: owner.workspaceId, userId: user.userId, role });
      const read = await call('GET', `${ws}/clients/${client.id}`, user.cookie);
      expect(read.statusCode).toBe(role === 'member' ? 200 : 403);
      for (const r of [
        await call('PATCH', `${ws}/clients/${client.id}`, user.cookie, { name: 'Mine' }),
        await call('POST', `${ws}/clients/${client.id}/archive`, user.cookie),
        await call('DELETE', `${ws}/clients/${client.id}`, user.cookie),
      ]) {
        expect(r.statusCode).toBe(403);
      }
    }
  });
});
