import { limitMessages, waitText } from '@sundial/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditTrail,
  caller,
  createTestApp,
  type SignedUp,
  STRONG_PASSWORD,
  sessionCookie,
  signUp,
  type TestApp,
  uniqueEmail,
} from '../../../test/harness.js';
import { type Inbox, startInbox } from '../../../test/smtp.js';
import { newId } from '../../platform/ids.js';

let inbox: Inbox;
let t: TestApp;
let call: ReturnType<typeof caller>;

beforeAll(async () => {
  inbox = await startInbox();
  t = await createTestApp({ SMTP_URL: inbox.url, RATE_LIMIT_INVITE_RESEND: '3' });
  call = caller(t.app);
});
afterAll(async () => {
  await t?.close();
  await inbox?.close();
});

/** The invitation token from the link in a received e-mail. */
async function tokenFromMail(email: string): Promise<string> {
  const mail = await inbox.waitFor(email);
  const match = /\/invite\?token=([\w-]+)/.exec(mail.text ?? '');
  if (!match?.[1]) throw new Error(`no invitation link in: ${mail.text}`);
  return match[1];
}

async function invite(owner: SignedUp, emails: string[], extra: object = {}) {
  return call('POST', `/api/v1/workspaces/${owner.workspaceId}/invites`, owner.cookie, { emails, ...extra });
}

async function setPlan(workspaceId: string, plan: 'free' | 'basic' | 'pro', licenses: number) {
  await t.db.updateTable('workspaces').set({ plan, licenses }).where('id', '=', workspaceId).execute();
}

describe('invites', () => {
  it('e-mails a link through SMTP; accepting creates the account, joins and signs in', async () => {
    const owner = await signUp(t.app);
    const group = (
      await call('POST', `/api/v1/workspaces/${owner.workspaceId}/groups`, owner.cookie, { name: 'Design' })
    ).json();
    const email = uniqueEmail('colleague');
    const sent = await invite(owner, [email.toUpperCase()], { role: 'manager', groupId: group.id });
    expect(sent.statusCode).toBe(201);
    expect(sent.json().items[0]).toMatchObject({ email, role: 'manager', status: 'pending', sendCount: 1 });

    const mail = await inbox.waitFor(email);
    expect(mail.subject).toContain('invited you to');
    const token = /\/invite\?token=([\w-]+)/.exec(mail.text ?? '')?.[1] ?? '';
    expect(mail.text).toContain('http://localhost:3000/invite?token=');

    const preview = await call('GET', `/api/v1/invites/${token}`);
    expect(preview.json()).toMatchObject({ email, roleLabel: 'Manager', hasAccount: false });

    const weak = await call('POST', `/api/v1/invites/${token}/accept`, undefined, { password: 'short' });
    expect(weak.statusCode).toBe(422);

    const accepted = await call('POST', `/api/v1/invites/${token}/accept`, undefined, {
      password: STRONG_PASSWORD,
      name: 'Cleo Colleague',
    });
    expect(accepted.statusCode).toBe(200);
    const cookie = sessionCookie(accepted);
    const me = (await call('GET', '/api/v1/me', cookie)).json();
    expect(me.currentWorkspaceId).toBe(owner.workspaceId);
    expect(me.workspaces).toHaveLength(1);
    expect(me.workspaces[0]).toMatchObject({ role: 'manager' });

    const members = (await call('GET', `/api/v1/workspaces/${owner.workspaceId}/members`, owner.cookie)).json();
    const colleague = members.items.find((m: { email: string }) => m.email === email);
    expect(colleague).toMatchObject({ name: 'Cleo Colleague', role: 'manager', groupIds: [group.id] });

    // Single use: the same link now says it was accepted, and the invite is no longer pending.
    const again = await call('POST', `/api/v1/invites/${token}/accept`, undefined, { password: STRONG_PASSWORD });
    expect(again.statusCode).toBe(410);
    expect(again.json().error.code).toBe('invite_used');
    const pending = (await call('GET', `/api/v1/workspaces/${owner.workspaceId}/invites`, owner.cookie)).json();
    expect(pending.items).toHaveLength(0);
  });

  it('adds an existing user who confirms their password, and refuses a wrong one', async () => {
    const owner = await signUp(t.app);
    const existing = await signUp(t.app);
    expect((await invite(owner, [existing.email])).statusCode).toBe(201);
    const token = await tokenFromMail(existing.email);
    expect((await call('GET', `/api/v1/invites/${token}`)).json().hasAccount).toBe(true);

    const wrong = await call('POST', `/api/v1/invites/${token}/accept`, undefined, { password: 'Wrong-pass-99' });
    expect(wrong.statusCode).toBe(401);
    const ok = await call('POST', `/api/v1/invites/${token}/accept`, undefined, { password: STRONG_PASSWORD });
    expect(ok.statusCode).toBe(200);
    const me = (await call('GET', '/api/v1/me', existing.cookie)).json();
    expect(me.workspaces.map((w: { id: string }) => w.id)).toContain(owner.workspaceId);
    expect(me.currentWorkspaceId).toBe(owner.workspaceId);
  });

  it('starts no session when an existing account confirms its password but cannot join', async () => {
    const owner = await signUp(t.app);
    const existing = await signUp(t.app);
    await invite(owner, [existing.email]);
    const token = await tokenFromMail(existing.email);
    // Meanwhile they became a member another way, so the invitation can no longer be used to join.
    await t.db
      .insertInto('memberships')
      .values({ workspace_id: owner.workspaceId, user_id: existing.userId, role: 'member' })
      .execute();
    const sessionsOf = async () =>
      (await t.db.selectFrom('sessions').select('id_hash').where('user_id', '=', existing.userId).execute()).length;
    const before = await sessionsOf();
    const refused = await call('POST', `/api/v1/invites/${token}/accept`, undefined, { password: STRONG_PASSWORD });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('already_member');
    expect(refused.cookies).toHaveLength(0);
    expect(await sessionsOf()).toBe(before);
  });

  it('lets a signed-in invitee accept without a password, and refuses someone else signed in', async () => {
    const owner = await signUp(t.app);
    const invitee = await signUp(t.app);
    const other = await signUp(t.app);
    await invite(owner, [invitee.email]);
    const token = await tokenFromMail(invitee.email);
    const byOther = await call('POST', `/api/v1/invites/${token}/accept`, other.cookie, {});
    expect(byOther.statusCode).toBe(403);
    expect(byOther.json().error.code).toBe('invite_other_account');
    expect((await call('POST', `/api/v1/invites/${token}/accept`, invitee.cookie, {})).statusCode).toBe(200);
  });

  it('invites many at once, refuses current members, and renews a pending invite', async () => {
    const owner = await signUp(t.app);
    const [a, b] = [uniqueEmail('a'), uniqueEmail('b')];
    const both = await invite(owner, [a, b, a]);
    expect(both.json().items).toHaveLength(2);
    const firstToken = await tokenFromMail(a);
    await tokenFromMail(b);

    const member = await invite(owner, [owner.email, uniqueEmail('c')]);
    expect(member.statusCode).toBe(409);
    expect(member.json().error.code).toBe('already_member');
    expect(member.json().error.fields['emails.0']).toContain('already a member');

    const list = (await call('GET', `/api/v1/workspaces/${owner.workspaceId}/invites`, owner.cookie)).json();
    expect(list.items.map((i: { email: string }) => i.email).sort()).toEqual([a, b].sort());

    // Resending gives a new link; the old one stops working.
    const inviteA = list.items.find((i: { email: string }) => i.email === a);
    const resent = await call(
      'POST',
      `/api/v1/workspaces/${owner.workspaceId}/invites/${inviteA.id}/resend`,
      owner.cookie,
    );
    expect(resent.json().sendCount).toBe(2);
    const newToken = await tokenFromMail(a);
    expect(newToken).not.toBe(firstToken);
    expect((await call('GET', `/api/v1/invites/${firstToken}`)).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/invites/${newToken}`)).statusCode).toBe(200);
  });

  it('sends one invitation again at most three times an hour, by resend or by inviting again', async () => {
    const owner = await signUp(t.app);
    const [email, other] = [uniqueEmail('flooded'), uniqueEmail('other')];
    const items: Array<{ id: string; email: string }> = (await invite(owner, [email, other])).json().items;
    const idOf = (address: string) => items.find((i) => i.email === address)?.id ?? '';
    const resend = (inviteId: string) =>
      call('POST', `/api/v1/workspaces/${owner.workspaceId}/invites/${inviteId}/resend`, owner.cookie);
    expect((await resend(idOf(email))).statusCode).toBe(200);
    expect((await resend(idOf(email))).statusCode).toBe(200);
    expect((await invite(owner, [email])).statusCode).toBe(201);

    const refused = await resend(idOf(email));
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(refused.json().error).toEqual({
      code: 'too_many_requests',
      message: limitMessages.inviteResend(waitText(retryAfter)),
    });
    expect((await invite(owner, [email])).statusCode).toBe(429);
    // Nothing more was sent: the first e-mail and three more.
    const mails = await t.db.selectFrom('outbox').select('id').where('to_address', '=', email).execute();
    expect(mails).toHaveLength(4);
    const list = (await call('GET', `/api/v1/workspaces/${owner.workspaceId}/invites`, owner.cookie)).json();
    expect(list.items.find((i: { email: string }) => i.email === email).sendCount).toBe(4);

    expect((await resend(idOf(other))).statusCode).toBe(200);
  });

  it('gives the inviter a working link to copy without e-mailing it, and the e-mailed link stops working', async () => {
    const owner = await signUp(t.app);
    const email = uniqueEmail('copied');
    const [created] = (await invite(owner, [email])).json().items;
    const mailedToken = await tokenFromMail(email);
    const linkUrl = (inviteId: string) => `/api/v1/workspaces/${owner.workspaceId}/invites/${inviteId}/link`;

    const issued = await call('POST', linkUrl(created.id), owner.cookie);
    expect(issued.statusCode).toBe(200);
    const { url, invite: view } = issued.json();
    expect(url).toMatch(/^http:\/\/localhost:3000\/invite\?token=[\w-]+$/);
    expect(view).toMatchObject({ id: created.id, email, status: 'pending', sendCount: 1 });
    const token = new URL(url).searchParams.get('token') ?? '';
    expect((await call('GET', `/api/v1/invites/${token}`)).json().email).toBe(email);
    expect((await call('GET', `/api/v1/invites/${mailedToken}`)).statusCode).toBe(404);
    // Nothing was e-mailed, and the link is a secret: it is not kept in the audit log.
    const mails = await t.db.selectFrom('outbox').select('id').where('to_address', '=', email).execute();
    expect(mails).toHaveLength(1);
    const audits = await auditTrail(t.db, { subjectId: created.id });
    expect(JSON.stringify(audits)).not.toContain(token);

    // Copying again never counts against the resend limit (three here): no e-mail leaves.
    for (let i = 0; i < 4; i++) expect((await call('POST', linkUrl(created.id), owner.cookie)).statusCode).toBe(200);

    const replaced = await call('POST', `/api/v1/invites/${token}/accept`, undefined, { password: STRONG_PASSWORD });
    expect(replaced.statusCode).toBe(404);
    const last = new URL((await call('POST', linkUrl(created.id), owner.cookie)).json().url).searchParams.get('token');
    const joined = await call('POST', `/api/v1/invites/${last}/accept`, undefined, { password: STRONG_PASSWORD });
    expect(joined.statusCode).toBe(200);
    expect((await call('POST', linkUrl(created.id), owner.cookie)).statusCode).toBe(404);
    expect((await call('POST', linkUrl(newId()), owner.cookie)).statusCode).toBe(404);
  });

  it('revokes an invite so its link no longer works', async () => {
    const owner = await signUp(t.app);
    const email = uniqueEmail('revoked');
    const id = (await invite(owner, [email])).json().items[0].id;
    const token = await tokenFromMail(email);
    const revoked = await call('DELETE', `/api/v1/workspaces/${owner.workspaceId}/invites/${id}`, owner.cookie);
    expect(revoked.statusCode).toBe(204);
    const response = await call('POST', `/api/v1/invites/${token}/accept`, undefined, { password: STRONG_PASSWORD });
    expect(response.statusCode).toBe(410);
    expect(response.json().error.code).toBe('invite_revoked');
  });

  it('refuses an expired link and an unknown one', async () => {
    const owner = await signUp(t.app);
    const email = uniqueEmail('late');
    await invite(owner, [email]);
    const token = await tokenFromMail(email);
    await t.db
      .updateTable('invites')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('email', '=', email)
      .execute();
    const expired = await call('GET', `/api/v1/invites/${token}`);
    expect(expired.statusCode).toBe(410);
    expect(expired.json().error.code).toBe('invite_expired');
    expect((await call('GET', '/api/v1/invites/nothing-here')).statusCode).toBe(404);
    const list = (await call('GET', `/api/v1/workspaces/${owner.workspaceId}/invites`, owner.cookie)).json();
    expect(list.items[0].status).toBe('expired');
  });

  it('has no seat limit on Free and the trial', async () => {
    const owner = await signUp(t.app);
    const emails = Array.from({ length: 5 }, () => uniqueEmail('free'));
    expect((await invite(owner, emails)).statusCode).toBe(201);
    const settings = (await call('GET', `/api/v1/workspaces/${owner.workspaceId}/team-settings`, owner.cookie)).json();
    expect(settings.seats).toEqual({ used: 1, limit: null, pendingInvites: 5 });
  });

  it('refuses invites beyond the licenses of a paid plan, with a message that links to billing; guests are free', async () => {
    const owner = await signUp(t.app);
    await setPlan(owner.workspaceId, 'basic', 2);
    expect((await invite(owner, [uniqueEmail('seat')])).statusCode).toBe(201);
    const refused = await invite(owner, [uniqueEmail('one-too-many')]);
    expect(refused.statusCode).toBe(402);
    expect(refused.json().error).toMatchObject({ code: 'seat_limit_reached' });
    expect(refused.json().error.message).toContain('/homepage/billing');
    expect(refused.json().error.message).toContain('All 2 licenses of your plan are in use.');

    const guestEmail = uniqueEmail('guest');
    expect((await invite(owner, [guestEmail], { role: 'guest' })).statusCode).toBe(201);
    const token = await tokenFromMail(guestEmail);
    const joined = await call('POST', `/api/v1/invites/${token}/accept`, undefined, { password: STRONG_PASSWORD });
    expect(joined.statusCode).toBe(200);
    const guestCookie = sessionCookie(joined);
    // A guest uses no license, and making them a member would take a seat that is not there.
    const guestId = joined.json().user.id;
    const promote = await call('PATCH', `/api/v1/workspaces/${owner.workspaceId}/members/${guestId}`, owner.cookie, {
      role: 'member',
    });
    expect(promote.statusCode).toBe(402);
    // A guest cannot see the people of the workspace.
    expect((await call('GET', `/api/v1/workspaces/${owner.workspaceId}/members`, guestCookie)).statusCode).toBe(403);

    await setPlan(owner.workspaceId, 'free', 2);
    expect((await invite(owner, [uniqueEmail('back-on-free')])).statusCode).toBe(201);
  });

  it('says how many licenses are free when more people are invited than that', async () => {
    const owner = await signUp(t.app);
    await setPlan(owner.workspaceId, 'basic', 3);
    const refused = await invite(owner, [uniqueEmail('a'), uniqueEmail('b'), uniqueEmail('c')]);
    expect(refused.statusCode).toBe(402);
    expect(refused.json().error).toMatchObject({
      code: 'seat_limit_reached',
      message: expect.stringMatching(
        /^Only 2 of the 3 licenses of your plan are free, and this needs 3\. Invite 2 people at most/,
      ),
    });
  });

  it('brings a removed member back with the new role when they accept a new invite', async () => {
    const owner = await signUp(t.app);
    const member = await signUp(t.app);
    await invite(owner, [member.email]);
    let token = await tokenFromMail(member.email);
    await call('POST', `/api/v1/invites/${token}/accept`, member.cookie, {});
    const url = `/api/v1/workspaces/${owner.workspaceId}/members/${member.userId}`;
    expect((await call('DELETE', url, owner.cookie)).statusCode).toBe(204);

    await invite(owner, [member.email], { role: 'manager' });
    token = await tokenFromMail(member.email);
    expect((await call('POST', `/api/v1/invites/${token}/accept`, member.cookie, {})).statusCode).toBe(200);
    expect((await call('GET', url, owner.cookie)).json()).toMatchObject({ role: 'manager', status: 'active' });
  });

  it('limits the invitation e-mails a workspace sends per hour', async () => {
    const owner = await signUp(t.app);
    await t.db
      .insertInto('audit_log')
      .values(
        Array.from({ length: 199 }, () => ({
          id: newId(),
          workspace_id: owner.workspaceId,
          action: 'invite.sent',
          detail: '{}',
        })),
      )
      .execute();
    const tooMany = await invite(owner, [uniqueEmail('x'), uniqueEmail('y')]);
    expect(tooMany.statusCode).toBe(429);
    expect(tooMany.json().error.code).toBe('too_many_invites');
    expect((await invite(owner, [uniqueEmail('z')])).statusCode).toBe(201);
  });
});
