import { emailDomainMessages } from '@sundial/core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  auditTrail,
  joinWorkspace,
  type SignedUp,
  STRONG_PASSWORD,
  signUp,
  useTestApp,
} from '../../../test/harness.js';

/**
 * A workspace's allowed e-mail domains (DECISIONS.md): the setting on the workspace's PATCH, and
 * each way in that honours it: invites (sent and accepted) and SCIM. SSO's just-in-time
 * membership is tested with its identity provider in sso/workspace-sso.int.test.ts.
 */
const ctx = useTestApp();
const ws = (owner: SignedUp) => `/api/v1/workspaces/${owner.workspaceId}`;
const setDomains = (owner: SignedUp, allowedEmailDomains: string[], cookie = owner.cookie) =>
  ctx.call('PATCH', ws(owner), cookie, { allowedEmailDomains });
const invite = (owner: SignedUp, emails: string[]) =>
  ctx.call('POST', `${ws(owner)}/invites`, owner.cookie, { emails });

describe('the allowed e-mail domains setting', () => {
  let owner: SignedUp;
  beforeAll(async () => {
    owner = await signUp(ctx.t.app);
  });

  it('is empty at first, and stores the list lower-cased and sorted, audited', async () => {
    expect((await ctx.call('GET', ws(owner), owner.cookie)).json().allowedEmailDomains).toEqual([]);
    const saved = await setDomains(owner, ['Example.COM', '@corp.example.org']);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      id: owner.workspaceId,
      allowedEmailDomains: ['corp.example.org', 'example.com'],
    });
    expect((await ctx.call('GET', ws(owner), owner.cookie)).json().allowedEmailDomains).toEqual([
      'corp.example.org',
      'example.com',
    ]);
    const audited = await auditTrail(ctx.t.db, {
      workspaceId: owner.workspaceId,
      action: 'workspace.email_domains_updated',
    });
    expect(audited).toHaveLength(1);
    expect(audited[0]?.detail).toEqual({ from: [], to: ['corp.example.org', 'example.com'] });
    // Renaming alone leaves the list as it is.
    const renamed = await ctx.call('PATCH', ws(owner), owner.cookie, { name: 'Renamed' });
    expect(renamed.json()).toMatchObject({ name: 'Renamed', allowedEmailDomains: ['corp.example.org', 'example.com'] });
    expect((await setDomains(owner, [])).json().allowedEmailDomains).toEqual([]);
  });

  it('refuses a bad domain or one listed twice, naming it, and keeps the list', async () => {
    await setDomains(owner, ['kept.example']);
    const bad = await setDomains(owner, ['good.example', 'not a domain']);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.fields).toEqual({
      'allowedEmailDomains.1': emailDomainMessages.notADomain('not a domain'),
    });
    const twice = await setDomains(owner, ['a.example', 'A.example']);
    expect(twice.statusCode).toBe(422);
    expect(twice.json().error.fields['allowedEmailDomains.1']).toBe('a.example is listed twice.');
    expect((await ctx.call('PATCH', ws(owner), owner.cookie, {})).statusCode).toBe(422);
    expect((await ctx.call('GET', ws(owner), owner.cookie)).json().allowedEmailDomains).toEqual(['kept.example']);
  });

  it('may be set by owners and admins only; members see it; others get 404, nobody 401', async () => {
    const admin = await joinWorkspace(ctx.t, owner.workspaceId, 'admin');
    expect((await setDomains(owner, ['by-admin.example'], admin.cookie)).statusCode).toBe(200);
    for (const role of ['manager', 'member', 'guest'] as const) {
      const someone = await joinWorkspace(ctx.t, owner.workspaceId, role);
      const refused = await setDomains(owner, [`by-${role}.example`], someone.cookie);
      expect(refused.statusCode, role).toBe(403);
      expect((await ctx.call('GET', ws(owner), someone.cookie)).json().allowedEmailDomains).toEqual([
        'by-admin.example',
      ]);
    }
    const stranger = await signUp(ctx.t.app);
    expect((await setDomains(owner, ['x.example'], stranger.cookie)).statusCode).toBe(404);
    expect((await ctx.call('PATCH', ws(owner), undefined, { allowedEmailDomains: [] })).statusCode).toBe(401);
  });
});

describe('invites under allowed e-mail domains', () => {
  it('refuses to invite an address outside the list with a 422 naming it, and sends nothing', async () => {
    const owner = await signUp(ctx.t.app);
    await setDomains(owner, ['allowed.example']);
    const refused = await invite(owner, ['ann@allowed.example', 'bob@elsewhere.example']);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toMatchObject({
      code: 'email_domain_not_allowed',
      message: emailDomainMessages.notAllowed('bob@elsewhere.example', ['allowed.example']),
      fields: { 'emails.1': emailDomainMessages.notAllowed('bob@elsewhere.example', ['allowed.example']) },
    });
    expect((await ctx.call('GET', `${ws(owner)}/invites`, owner.cookie)).json().items).toEqual([]);
    const sent = await invite(owner, ['Ann@Allowed.example']);
    expect(sent.statusCode, sent.body).toBe(201);
  });

  it('checks again on acceptance, in case the list changed since the invite', async () => {
    const owner = await signUp(ctx.t.app);
    const sent = await invite(owner, ['newcomer@first.example']);
    expect(sent.statusCode).toBe(201);
    const link = await ctx.call('POST', `${ws(owner)}/invites/${sent.json().items[0].id}/link`, owner.cookie);
    const token = new URL(link.json().url).searchParams.get('token') ?? '';
    await setDomains(owner, ['second.example']);
    const accept = () =>
      ctx.call('POST', `/api/v1/invites/${token}/accept`, undefined, { password: STRONG_PASSWORD, name: 'New' });
    const refused = await accept();
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.code).toBe('email_domain_not_allowed');
    expect(refused.cookies.find((c) => c.name === 'sundial_sid')).toBeUndefined();
    const account = await ctx.t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'newcomer@first.example')
      .execute();
    expect(account).toEqual([]);

    await setDomains(owner, ['first.example', 'second.example']);
    expect((await accept()).statusCode).toBe(200);
  });
});

describe('SCIM provisioning under allowed e-mail domains', () => {
  it('refuses to create a user outside the list, with a SCIM error that says why', async () => {
    const owner = await signUp(ctx.t.app);
    const made = await ctx.call('POST', `${ws(owner)}/scim-token`, owner.cookie);
    expect(made.statusCode, made.body).toBe(201);
    await setDomains(owner, ['corp.example']);
    const create = (userName: string) =>
      ctx.t.app.inject({
        method: 'POST',
        url: '/scim/v2/Users',
        headers: { authorization: `Bearer ${made.json().token}`, 'content-type': 'application/scim+json' },
        payload: JSON.stringify({
          schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
          userName,
          name: { givenName: 'Pat', familyName: 'Lee' },
          active: true,
        }),
      });
    const refused = await create('pat@outside.example');
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({
      scimType: 'invalidValue',
      detail: emailDomainMessages.notAllowed('pat@outside.example', ['corp.example']),
    });
    expect(await ctx.t.db.selectFrom('users').where('email', '=', 'pat@outside.example').selectAll().execute()).toEqual(
      [],
    );
    expect((await create('pat@corp.example')).statusCode).toBe(201);
  });
});
