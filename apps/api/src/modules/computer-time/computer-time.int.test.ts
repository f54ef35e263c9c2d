import { DEFAULT_COMPUTER_TIME_SETTINGS, type DeviceCodeView, type DeviceTokenView } from '@sundial/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityTeam, pairComputer } from '../../../test/computer-time.js';
import { auditTrail, createTestApp, joinWorkspace, type SignedUp, type TestApp } from '../../../test/harness.js';
import { hashSecret } from '../../platform/ids.js';

/**
 * Computer time's server side (issue 35) against the real app and database: pairing by device
 * code, the device token and where it opens, the workspace's settings, uploads of spans (idempotent,
 * refused when impossible, the settings applied, daily rollups), reading by role and setting,
 * deleting one's own activity, and retention.
 */
let t: TestApp;
let clock = new Date('2026-06-10T12:00:00Z');
let owner: SignedUp;
let admin: SignedUp;
let manager: SignedUp;
let member: SignedUp;
let other: SignedUp;
let outsider: SignedUp;

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
const call = (cookie: string | undefined, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, payload, headers: cookie ? { cookie } : {} });
const asDevice = (token: string, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, payload, headers: { authorization: `Bearer ${token}` } });
const ws = (path: string) => `/workspaces/${owner.workspaceId}${path}`;
const later = (seconds: number) => {
  clock = new Date(clock.getTime() + seconds * 1000);
};

async function startPairing(name = 'ann-laptop'): Promise<DeviceCodeView> {
  const response = await call(undefined, 'POST', '/agent/device-codes', {
    name,
    platform: 'linux',
    agentVersion: '0.1.0',
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const poll = (deviceCode: string) => call(undefined, 'POST', '/agent/device-token', { deviceCode });

/** A computer of `who` paired in the owner's workspace: its token. */
const pair = (who: SignedUp): Promise<DeviceTokenView> => pairComputer(t, who, owner.workspaceId);

let spanCount = 0;
/** A span of `minutes` from `start`, with a fresh id. */
function span(start: string, minutes: number, extra: Record<string, unknown> = {}) {
  spanCount += 1;
  const id = `00000000-0000-4000-8000-${String(spanCount).padStart(12, '0')}`;
  const startedAt = new Date(start);
  return {
    id,
    kind: 'active',
    startedAt: startedAt.toISOString(),
    endedAt: new Date(startedAt.getTime() + minutes * 60_000).toISOString(),
    app: 'firefox',
    title: 'Inbox — Mail',
    url: 'https://mail.example.com/inbox?token=secret#top',
    awayReason: null,
    ...extra,
  };
}

const upload = (token: string, spans: object[]) => asDevice(token, 'POST', '/agent/spans', { spans });

async function dailyOf(userId: string) {
  return t.db
    .selectFrom('activity_daily')
    .select(['app', 'seconds', (eb) => eb.cast<string>('day', 'text').as('day')])
    .where('user_id', '=', userId)
    .orderBy('day')
    .orderBy('app')
    .execute();
}

beforeAll(async () => {
  t = await createTestApp({}, { now: () => clock });
  ({ owner, admin, manager, member, other, outsider } = await activityTeam(t));
});
afterAll(() => t?.close());

describe('pairing by device code', () => {
  it('gives codes, keeps only the device code’s hash, and pairs once the person approves', async () => {
    const codes = await startPairing();
    expect(codes.userCode).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    expect(codes.userCode).not.toMatch(/[ILOU]/);
    expect(codes.verificationUriComplete).toBe(`http://localhost:3000/homepage/agent/pair?code=${codes.userCode}`);
    expect(codes).toMatchObject({ expiresIn: 600, interval: 5 });
    const stored = await t.db.selectFrom('agent_device_codes').selectAll().execute();
    expect(stored.map((c) => c.device_code_hash)).toContain(hashSecret(codes.deviceCode));
    expect(JSON.stringify(stored)).not.toContain(codes.deviceCode);

    const first = await poll(codes.deviceCode);
    expect(first.statusCode).toBe(400);
    expect(first.json().error.code).toBe('authorization_pending');
    const tooSoon = await poll(codes.deviceCode);
    expect(tooSoon.json().error).toMatchObject({ code: 'slow_down' });

    // The page shows the computer; a code is typed in any case, with or without the dash.
    const typed = codes.userCode.replace('-', '').toLowerCase();
    const shown = await call(member.cookie, 'GET', `/agent/device-codes/${typed}`);
    expect(shown.json()).toMatchObject({ name: 'ann-laptop', platform: 'linux', userCode: codes.userCode });
    const elsewhere = await call(member.cookie, 'POST', '/agent/device-codes/approve', {
      userCode: typed,
      workspaceId: outsider.workspaceId,
    });
    expect(elsewhere.statusCode).toBe(404);
    const approved = await call(member.cookie, 'POST', '/agent/device-codes/approve', {
      userCode: typed,
      workspaceId: owner.workspaceId,
    });
    expect(approved.statusCode, approved.body).toBe(204);

    later(5);
    const token = await poll(codes.deviceCode);
    expect(token.statusCode, token.body).toBe(200);
    expect(token.json()).toMatchObject({ workspaceId: owner.workspaceId, userId: member.userId });
    expect(token.json().token).toMatch(/^sdd_/);
    const device = await t.db
      .selectFrom('agent_devices')
      .select('token_hash')
      .where('id', '=', token.json().deviceId)
      .executeTakeFirstOrThrow();
    expect(device.token_hash).toBe(hashSecret(token.json().token));
    // Used once.
    later(5);
    expect((await poll(codes.deviceCode)).json().error.code).toBe('expired_token');
    const trail = await auditTrail(t.db, { subjectId: token.json().deviceId });
    expect(trail.map((r) => r.action)).toEqual(['agent_device.paired']);
  });

  it('tells the agent the person refused, and a code is dead after ten minutes', async () => {
    const refused = await startPairing();
    const denied = await call(member.cookie, 'POST', '/agent/device-codes/deny', { userCode: refused.userCode });
    expect(denied.statusCode).toBe(204);
    expect((await poll(refused.deviceCode)).json().error.code).toBe('access_denied');

    const stale = await startPairing();
    later(601);
    expect((await poll(stale.deviceCode)).json().error.code).toBe('expired_token');
    const late = await call(member.cookie, 'POST', '/agent/device-codes/approve', {
      userCode: stale.userCode,
      workspaceId: owner.workspaceId,
    });
    expect(late.statusCode).toBe(404);
    expect((await poll('not-a-code')).json().error.code).toBe('expired_token');
    const malformed = await call(member.cookie, 'POST', '/agent/device-codes/approve', {
      userCode: 'ABCD-EFG1',
      workspaceId: owner.workspaceId,
    });
    expect(malformed.statusCode).toBe(422);
    expect(malformed.body).toContain('eight letters');
  });
});

describe('device tokens', () => {
  it('open the agent’s routes only, as their person in their workspace', async () => {
    const { token, deviceId } = await pair(member);
    const config = await asDevice(token, 'GET', '/agent/config');
    expect(config.statusCode, config.body).toBe(200);
    expect(config.json()).toMatchObject({
      workspaceId: owner.workspaceId,
      userId: member.userId,
      deviceId,
      keep: 'titles',
      idleSeconds: 180,
      exclusions: [],
      serverTime: clock.toISOString(),
    });
    for (const [method, url] of [
      ['GET', '/me'],
      ['GET', '/me/devices'],
      ['GET', ws('/time-entries')],
      ['GET', ws('/computer-time/spans?from=2026-06-10T00:00:00Z&to=2026-06-11T00:00:00Z')],
      ['POST', '/agent/device-codes/approve'],
    ] as const) {
      const response = await asDevice(token, method, url, {});
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().error.message).toContain('agent’s routes');
    }
    // A browser session is not a device; nobody is 401.
    const bySession = await call(member.cookie, 'GET', '/agent/config');
    expect(bySession.statusCode).toBe(403);
    expect(bySession.json().error.code).toBe('device_token_required');
    expect((await call(undefined, 'GET', '/agent/config')).statusCode).toBe(401);
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(document.paths['/api/v1/agent/spans'].post.security).toEqual([{ deviceToken: [] }]);
  });

  it('writes the last use at most once a minute', async () => {
    const { token, deviceId } = await pair(member);
    const seen = async () =>
      (
        await t.db
          .selectFrom('agent_devices')
          .select('last_seen_at')
          .where('id', '=', deviceId)
          .executeTakeFirstOrThrow()
      ).last_seen_at?.toISOString();
    await asDevice(token, 'GET', '/agent/config');
    const first = clock.toISOString();
    expect(await seen()).toBe(first);
    later(30);
    await asDevice(token, 'GET', '/agent/config');
    expect(await seen()).toBe(first);
    later(31);
    await asDevice(token, 'GET', '/agent/config');
    expect(await seen()).toBe(clock.toISOString());
  });

  it('are listed and revoked by their person only, and stop at once', async () => {
    const { token, deviceId } = await pair(member);
    const listed = await call(member.cookie, 'GET', '/me/devices');
    expect(listed.json().items.find((d: { id: string }) => d.id === deviceId)).toMatchObject({
      name: 'ann-laptop',
      platform: 'linux',
      workspace: { id: owner.workspaceId },
    });
    expect((await call(owner.cookie, 'GET', '/me/devices')).json().items).toEqual([]);
    expect((await call(owner.cookie, 'DELETE', `/me/devices/${deviceId}`)).statusCode).toBe(404);
    expect((await asDevice(token, 'GET', '/agent/config')).statusCode).toBe(200);
    expect((await call(member.cookie, 'DELETE', `/me/devices/${deviceId}`)).statusCode).toBe(204);
    const refused = await asDevice(token, 'GET', '/agent/config');
    expect(refused.statusCode).toBe(401);
    expect(
      (await call(member.cookie, 'GET', '/me/devices')).json().items.map((d: { id: string }) => d.id),
    ).not.toContain(deviceId);
    const trail = await auditTrail(t.db, { subjectId: deviceId });
    expect(trail.map((r) => r.action)).toEqual(['agent_device.paired', 'agent_device.revoked']);
  });

  it('stop when their person leaves the workspace', async () => {
    const leaver = await joinWorkspace(t, owner.workspaceId, 'member');
    const { token } = await pair(leaver);
    expect((await asDevice(token, 'GET', '/agent/config')).statusCode).toBe(200);
    expect((await call(leaver.cookie, 'POST', ws('/leave'))).statusCode).toBeLessThan(300);
    expect((await asDevice(token, 'GET', '/agent/config')).statusCode).toBe(401);
  });
});

describe('settings', () => {
  it('are read by everyone, changed by owners and admins, and reach the agent', async () => {
    expect((await call(member.cookie, 'GET', ws('/computer-time/settings'))).json()).toEqual({
      keep: 'titles',
      idleSeconds: 180,
      retentionDays: null,
      managersSeeActivity: false,
      exclusions: [],
    });
    const wanted = {
      keep: 'apps',
      idleSeconds: 300,
      retentionDays: 90,
      managersSeeActivity: false,
      exclusions: [{ field: 'app', pattern: 'KeePass' }],
    };
    expect((await call(manager.cookie, 'PUT', ws('/computer-time/settings'), wanted)).statusCode).toBe(403);
    const bad = await call(admin.cookie, 'PUT', ws('/computer-time/settings'), { ...wanted, idleSeconds: 30 });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('60 to 3600 seconds');
    const saved = await call(admin.cookie, 'PUT', ws('/computer-time/settings'), wanted);
    expect(saved.statusCode, saved.body).toBe(200);
    const { token } = await pair(member);
    expect((await asDevice(token, 'GET', '/agent/config')).json()).toMatchObject({
      keep: 'apps',
      idleSeconds: 300,
      exclusions: [{ field: 'app', pattern: 'KeePass' }],
    });
    const trail = await auditTrail(t.db, { workspaceId: owner.workspaceId, action: 'computer_time_settings.updated' });
    expect(trail.at(-1)?.detail).toMatchObject({ changes: { keep: { from: 'titles', to: 'apps' } } });
    await call(owner.cookie, 'PUT', ws('/computer-time/settings'), { ...wanted, keep: 'titles', retentionDays: null });
  });
});

describe('uploads', () => {
  it('store each span once: a repeated upload is all duplicates', async () => {
    const { token } = await pair(other);
    const batch = [span('2026-06-10T08:00:00Z', 10), span('2026-06-10T08:10:00Z', 5, { app: 'code' })];
    const first = await upload(token, batch);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ accepted: 2, duplicates: 0 });
    expect((await upload(token, batch)).json()).toEqual({ accepted: 0, duplicates: 2 });
    const more = [...batch, span('2026-06-10T08:15:00Z', 1, { kind: 'away', app: null, title: null, url: null })];
    expect((await upload(token, more)).json()).toEqual({ accepted: 1, duplicates: 2 });
  });

  it('refuse spans in the future, longer than a day, or overlapping, with the reason', async () => {
    const { token } = await pair(other);
    const cases: [object[], string, string][] = [
      [[span(new Date(clock.getTime() + 60_000).toISOString(), 2)], 'span_in_future', 'computer’s clock'],
      [[span('2026-06-01T00:00:00Z', 24 * 60 + 1)], 'span_too_long', '24 hours'],
      [[span('2026-06-09T10:00:00Z', 10), span('2026-06-09T10:05:00Z', 10)], 'span_overlap', 'one thing at a time'],
      [[span('2026-06-09T10:00:00Z', 10, { app: null })], 'span_without_app', 'no application'],
    ];
    for (const [spans, code, words] of cases) {
      const response = await upload(token, spans);
      expect(response.statusCode, code).toBe(422);
      expect(response.json().error.code).toBe(code);
      expect(response.json().error.message).toContain(words);
    }
    // A minute ahead is a clock a little off; touching ends are fine.
    const ok = await upload(token, [
      span(new Date(clock.getTime() - 60_000).toISOString(), 2),
      span('2026-06-09T11:00:00Z', 10),
      span('2026-06-09T11:10:00Z', 10),
    ]);
    expect(ok.json()).toEqual({ accepted: 3, duplicates: 0 });
    for (const [start, minutes] of [
      ['2026-06-09T11:15:00Z', 10],
      // Around both stored spans, and inside the first.
      ['2026-06-09T10:55:00Z', 35],
      ['2026-06-09T11:02:00Z', 2],
    ] as const) {
      const overlapping = await upload(token, [span(start, minutes)]);
      expect(overlapping.statusCode, start).toBe(422);
      expect(overlapping.json().error.message).toContain('uploaded before');
    }
    // Before, between (touching) and after the stored spans is free; so is another computer's.
    const beside = await upload(token, [span('2026-06-09T10:50:00Z', 10), span('2026-06-09T11:20:00Z', 5)]);
    expect(beside.json()).toEqual({ accepted: 2, duplicates: 0 });
    const second = await pair(other);
    expect((await upload(second.token, [span('2026-06-09T11:00:00Z', 30)])).json()).toEqual({
      accepted: 1,
      duplicates: 0,
    });
    // Nothing of a refused upload is kept.
    const stored = await t.db
      .selectFrom('activity_spans')
      .select('id')
      .where('started_at', '=', new Date('2026-06-01T00:00:00Z'))
      .execute();
    expect(stored).toEqual([]);
  });

  it('keep what the workspace keeps: titles, sites without query, exclusions', async () => {
    const settings = { idleSeconds: 180, retentionDays: null, managersSeeActivity: false };
    const keep = async (kept: object) =>
      expect(
        (await call(owner.cookie, 'PUT', ws('/computer-time/settings'), { ...settings, ...kept })).statusCode,
      ).toBe(200);
    const who = await joinWorkspace(t, owner.workspaceId, 'member');
    const { token } = await pair(who);
    const stored = async (id: string) =>
      t.db.selectFrom('activity_spans').select(['app', 'title', 'url']).where('id', '=', id).executeTakeFirstOrThrow();

    await keep({ keep: 'apps', exclusions: [] });
    const appsOnly = span('2026-06-08T09:00:00Z', 1);
    await upload(token, [appsOnly]);
    expect(await stored(appsOnly.id)).toEqual({ app: 'firefox', title: null, url: null });

    await keep({ keep: 'titles', exclusions: [] });
    const titles = span('2026-06-08T09:01:00Z', 1);
    await upload(token, [titles]);
    expect(await stored(titles.id)).toEqual({ app: 'firefox', title: 'Inbox — Mail', url: null });

    // The agent's pattern language: contains, ignoring case, * for any run of characters.
    await keep({
      keep: 'sites',
      exclusions: [
        { field: 'title', pattern: 'BANK' },
        { field: 'title', pattern: 'private*chat' },
      ],
    });
    const site = span('2026-06-08T09:02:00Z', 1);
    const bank = span('2026-06-08T09:03:00Z', 1, { title: 'My bank — Firefox' });
    const chat = span('2026-06-08T09:04:00Z', 1, { title: 'Private group chat — Signal' });
    await upload(token, [site, bank, chat]);
    expect(await stored(chat.id)).toEqual({ app: 'excluded', title: null, url: null });
    expect(await stored(site.id)).toEqual({
      app: 'firefox',
      title: 'Inbox — Mail',
      url: 'https://mail.example.com/inbox',
    });
    expect(await stored(bank.id)).toEqual({ app: 'excluded', title: null, url: null });
    await keep({ keep: 'titles', exclusions: [] });
  });

  it('roll active seconds up per day in the person’s time zone, split at their midnight', async () => {
    const who = await joinWorkspace(t, owner.workspaceId, 'member');
    await t.db.updateTable('users').set({ time_zone: 'America/New_York' }).where('id', '=', who.userId).execute();
    const { token } = await pair(who);
    // 03:30 to 04:30 UTC is 23:30 to 00:30 in New York (UTC-4 in June).
    await upload(token, [
      span('2026-06-08T03:30:00Z', 60),
      span('2026-06-08T04:30:00Z', 15, { app: 'code' }),
      span('2026-06-08T04:45:00Z', 30, { kind: 'away', app: null, title: null, url: null, awayReason: 'locked' }),
    ]);
    expect(await dailyOf(who.userId)).toEqual([
      { day: '2026-06-07', app: 'firefox', seconds: 1800 },
      { day: '2026-06-08', app: 'code', seconds: 900 },
      { day: '2026-06-08', app: 'firefox', seconds: 1800 },
    ]);
  });
});

describe('uploads and their rollups', () => {
  it('roll a browser’s time up per site where sites are kept, and deleting follows each site', async () => {
    const who = await joinWorkspace(t, owner.workspaceId, 'member');
    const { token } = await pair(who);
    await call(owner.cookie, 'PUT', ws('/computer-time/settings'), {
      ...DEFAULT_COMPUTER_TIME_SETTINGS,
      keep: 'sites',
    });
    try {
      const github = (start: string, minutes: number, path: string) =>
        span(start, minutes, { url: `https://www.github.com/${path}?tab=files#top` });
      await upload(token, [
        github('2026-06-03T09:00:00Z', 20, 'acme/app/pull/7'),
        github('2026-06-03T09:20:00Z', 10, 'acme/app'),
        span('2026-06-03T09:30:00Z', 5, { url: 'https://news.ycombinator.com/item?id=1' }),
        span('2026-06-03T09:35:00Z', 5, { url: null }),
        span('2026-06-03T09:40:00Z', 5, { app: 'code', url: null }),
      ]);
      const read = async () =>
        (await call(who.cookie, 'GET', ws('/computer-time/activities?from=2026-06-03&to=2026-06-03'))).json().items;
      expect(await read()).toEqual([
        { userId: who.userId, day: '2026-06-03', app: 'firefox', site: 'github.com', seconds: 1800 },
        { userId: who.userId, day: '2026-06-03', app: 'code', site: null, seconds: 300 },
        { userId: who.userId, day: '2026-06-03', app: 'firefox', site: null, seconds: 300 },
        { userId: who.userId, day: '2026-06-03', app: 'firefox', site: 'news.ycombinator.com', seconds: 300 },
      ]);
      // Deleting 09:10 to 09:32 cuts the pull request's span and the news span, per site.
      const deleted = await call(
        who.cookie,
        'DELETE',
        ws('/computer-time/spans?from=2026-06-03T09:10:00Z&to=2026-06-03T09:32:00Z'),
      );
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect(await read()).toEqual([
        { userId: who.userId, day: '2026-06-03', app: 'firefox', site: 'github.com', seconds: 600 },
        { userId: who.userId, day: '2026-06-03', app: 'code', site: null, seconds: 300 },
        { userId: who.userId, day: '2026-06-03', app: 'firefox', site: null, seconds: 300 },
        { userId: who.userId, day: '2026-06-03', app: 'firefox', site: 'news.ycombinator.com', seconds: 180 },
      ]);
    } finally {
      await call(owner.cookie, 'PUT', ws('/computer-time/settings'), DEFAULT_COMPUTER_TIME_SETTINGS);
    }
  });

  it('roll up only the spans an upload stores: not its duplicates, nothing of a refused one', async () => {
    const who = await joinWorkspace(t, owner.workspaceId, 'member');
    const { token } = await pair(who);
    const first = span('2026-06-04T09:00:00Z', 10);
    expect((await upload(token, [first])).json()).toEqual({ accepted: 1, duplicates: 0 });
    // Sent again beside new spans (the agent never heard the first answer): it counts once.
    const [second, third] = [span('2026-06-04T09:10:00Z', 5, { app: 'code' }), span('2026-06-04T09:15:00Z', 2)];
    expect((await upload(token, [first, second, third])).json()).toEqual({ accepted: 2, duplicates: 1 });
    const expected = [
      { day: '2026-06-04', app: 'code', seconds: 300 },
      { day: '2026-06-04', app: 'firefox', seconds: 720 },
    ];
    expect(await dailyOf(who.userId)).toEqual(expected);
    // One span of an upload overlaps a stored one: nothing of it is stored, the rollups stay.
    const fresh = span('2026-06-04T10:00:00Z', 10);
    const overlapping = span('2026-06-04T09:16:00Z', 3);
    const refusedUpload = await upload(token, [fresh, overlapping]);
    expect(refusedUpload.statusCode).toBe(422);
    expect(refusedUpload.json().error.message).toContain(overlapping.id);
    const stored = await t.db.selectFrom('activity_spans').select('id').where('user_id', '=', who.userId).execute();
    expect(stored.map((r) => r.id).sort()).toEqual([first.id, second.id, third.id].sort());
    expect(await dailyOf(who.userId)).toEqual(expected);
  });
});

describe('a span’s references', () => {
  it('name its device with the device’s person and workspace, and go with the device', async () => {
    const who = await joinWorkspace(t, owner.workspaceId, 'member');
    const { token, deviceId } = await pair(who);
    expect((await upload(token, [span('2026-06-03T09:00:00Z', 10)])).statusCode).toBe(200);
    // One reference (device, workspace, person): a span cannot name another person for the device.
    const misnamed = sql`
      insert into activity_spans (id, workspace_id, user_id, device_id, kind, started_at, ended_at, app)
      values (${crypto.randomUUID()}, ${owner.workspaceId}, ${member.userId}, ${deviceId}, 'active',
              ${new Date('2026-06-03T10:00:00Z')}, ${new Date('2026-06-03T10:05:00Z')}, 'x')`;
    await expect(misnamed.execute(t.db)).rejects.toThrow(/activity_spans_device_fkey/);
    // Deleting the device (as deleting its person or workspace does) takes its spans.
    await t.db.deleteFrom('agent_devices').where('id', '=', deviceId).execute();
    const left = await t.db.selectFrom('activity_spans').select('id').where('user_id', '=', who.userId).execute();
    expect(left).toEqual([]);
  });
});

describe('reading and deleting activity', () => {
  let memberToken: string;
  const day = '?from=2026-06-05T00:00:00Z&to=2026-06-06T00:00:00Z';

  beforeAll(async () => {
    memberToken = (await pair(member)).token;
    const response = await upload(memberToken, [
      span('2026-06-05T09:00:00Z', 60),
      span('2026-06-05T10:00:00Z', 30, { app: 'code' }),
    ]);
    expect(response.json()).toEqual({ accepted: 2, duplicates: 0 });
  });

  const spansOf = (who: SignedUp, userId: string) =>
    call(who.cookie, 'GET', ws(`/computer-time/spans${day}&userId=${userId}`));
  const setSee = (on: boolean) =>
    call(owner.cookie, 'PUT', ws('/computer-time/settings'), {
      keep: 'titles',
      idleSeconds: 180,
      retentionDays: null,
      managersSeeActivity: on,
      exclusions: [],
    });

  it('shows a person their own, and others only as the workspace allows and reports reach', async () => {
    const own = await call(member.cookie, 'GET', ws(`/computer-time/spans${day}`));
    expect(own.json().items.map((s: { app: string }) => s.app)).toEqual(['firefox', 'code']);
    expect((await spansOf(manager, member.userId)).statusCode).toBe(403);
    expect((await spansOf(admin, member.userId)).statusCode).toBe(403);
    expect((await setSee(true)).statusCode).toBe(200);
    expect((await spansOf(manager, member.userId)).json().items).toHaveLength(2);
    expect((await spansOf(admin, member.userId)).json().items).toHaveLength(2);
    // Not the manager's person; members never see others.
    expect((await spansOf(manager, other.userId)).statusCode).toBe(403);
    expect((await spansOf(other, member.userId)).statusCode).toBe(403);
    expect((await call(outsider.cookie, 'GET', ws(`/computer-time/spans${day}`))).statusCode).toBe(404);

    const activities = (who: SignedUp, query = '') =>
      call(who.cookie, 'GET', ws(`/computer-time/activities?from=2026-06-05&to=2026-06-05${query}`));
    expect((await activities(manager)).json().items).toEqual([
      { userId: member.userId, day: '2026-06-05', app: 'firefox', site: null, seconds: 3600 },
      { userId: member.userId, day: '2026-06-05', app: 'code', site: null, seconds: 1800 },
    ]);
    expect((await activities(manager, `&userIds=${other.userId}`)).statusCode).toBe(403);
    // Added up: the people the reader sees, per day and application, without saying who.
    await upload((await pair(other)).token, [
      span('2026-06-05T11:00:00Z', 10),
      span('2026-06-05T11:10:00Z', 5, { app: 'slack' }),
    ]);
    expect((await activities(admin, '&together=true')).json().items).toEqual([
      { userId: null, day: '2026-06-05', app: 'firefox', site: null, seconds: 4200 },
      { userId: null, day: '2026-06-05', app: 'code', site: null, seconds: 1800 },
      { userId: null, day: '2026-06-05', app: 'slack', site: null, seconds: 300 },
    ]);
    expect((await activities(manager, '&together=true')).json().items).toEqual([
      { userId: null, day: '2026-06-05', app: 'firefox', site: null, seconds: 3600 },
      { userId: null, day: '2026-06-05', app: 'code', site: null, seconds: 1800 },
    ]);
    expect((await activities(admin, `&together=true&userIds=${other.userId}`)).json().items).toEqual([
      { userId: null, day: '2026-06-05', app: 'firefox', site: null, seconds: 600 },
      { userId: null, day: '2026-06-05', app: 'slack', site: null, seconds: 300 },
    ]);
    expect((await activities(manager, `&together=true&userIds=${other.userId}`)).statusCode).toBe(403);
    expect((await activities(admin, '&together=maybe')).statusCode).toBe(422);
    await setSee(false);
    expect((await activities(manager)).json().items).toEqual([]);
    expect((await activities(member)).json().items).toHaveLength(2);
  });

  it('lets a person delete their own activity in a range, cutting spans across its ends', async () => {
    const removed = await call(
      member.cookie,
      'DELETE',
      ws('/computer-time/spans?from=2026-06-05T09:30:00Z&to=2026-06-05T10:10:00Z'),
    );
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ deleted: 0, trimmed: 2 });
    const left = (await call(member.cookie, 'GET', ws(`/computer-time/spans${day}`))).json().items;
    expect(left.map((s: { startedAt: string; endedAt: string }) => [s.startedAt, s.endedAt])).toEqual([
      ['2026-06-05T09:00:00.000Z', '2026-06-05T09:30:00.000Z'],
      ['2026-06-05T10:10:00.000Z', '2026-06-05T10:30:00.000Z'],
    ]);
    const days = (await dailyOf(member.userId)).filter((d) => d.day === '2026-06-05');
    expect(days).toEqual([
      { day: '2026-06-05', app: 'code', seconds: 1200 },
      { day: '2026-06-05', app: 'firefox', seconds: 1800 },
    ]);
    // A range inside one span splits it in two; the whole day empties the rollups.
    await call(member.cookie, 'DELETE', ws('/computer-time/spans?from=2026-06-05T09:10:00Z&to=2026-06-05T09:20:00Z'));
    const split = (await call(member.cookie, 'GET', ws(`/computer-time/spans${day}`))).json().items;
    expect(split).toHaveLength(3);
    await call(member.cookie, 'DELETE', ws(`/computer-time/spans${day}`));
    expect((await dailyOf(member.userId)).filter((d) => d.day === '2026-06-05')).toEqual([]);
  });
});

describe('retention', () => {
  it('deletes activity older than the workspace keeps it, daily', async () => {
    const who = await joinWorkspace(t, owner.workspaceId, 'member');
    const { token } = await pair(who);
    await upload(token, [span('2026-03-01T09:00:00Z', 30), span('2026-06-01T09:00:00Z', 30)]);
    // Person by person: a second one of the workspace loses theirs too; another workspace keeps its own.
    const second = await joinWorkspace(t, owner.workspaceId, 'member');
    await upload((await pair(second)).token, [span('2026-02-01T09:00:00Z', 30)]);
    const elsewhere = await startPairing('elsewhere');
    await call(outsider.cookie, 'POST', '/agent/device-codes/approve', {
      userCode: elsewhere.userCode,
      workspaceId: outsider.workspaceId,
    });
    const outsiders = (await poll(elsewhere.deviceCode)).json() as DeviceTokenView;
    expect((await upload(outsiders.token, [span('2026-02-01T09:00:00Z', 30)])).statusCode).toBe(200);
    await call(owner.cookie, 'PUT', ws('/computer-time/settings'), {
      keep: 'titles',
      idleSeconds: 180,
      retentionDays: 30,
      managersSeeActivity: false,
      exclusions: [],
    });
    await t.app.services.computerTime.prune(clock);
    const left = await t.db
      .selectFrom('activity_spans')
      .select('started_at')
      .where('user_id', '=', who.userId)
      .execute();
    expect(left.map((s) => s.started_at.toISOString())).toEqual(['2026-06-01T09:00:00.000Z']);
    expect((await dailyOf(who.userId)).map((d) => d.day)).toEqual(['2026-06-01']);
    const spansOf = (userId: string) =>
      t.db.selectFrom('activity_spans').select('id').where('user_id', '=', userId).execute();
    expect(await spansOf(second.userId)).toEqual([]);
    expect(await spansOf(outsider.userId)).toHaveLength(1);
  });
});

describe('the pairing limit', () => {
  it('refuses an address that starts too many pairings in an hour', async () => {
    const limited = await createTestApp({ RATE_LIMIT_AGENT_PAIRING_PER_IP: '2' });
    try {
      const start = () =>
        limited.app.inject({
          method: 'POST',
          url: '/api/v1/agent/device-codes',
          payload: { name: 'pc', platform: 'win32', agentVersion: '1.0.0' },
        });
      expect((await start()).statusCode).toBe(200);
      expect((await start()).statusCode).toBe(200);
      const refused = await start();
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.message).toContain('Too many pairings');
      expect(refused.headers['retry-after']).toBeDefined();
    } finally {
      await limited.close();
    }
  });
});

describe('categories', () => {
  type Category = { id: string; parentId: string | null; name: string; productivity: string | null };
  const list = async (who: SignedUp) => {
    const response = await call(who.cookie, 'GET', ws('/computer-time/categories'));
    expect(response.statusCode, response.body).toBe(200);
    return response.json().items as Category[];
  };

  it('starts a workspace with the starter set, stored by its first change with the ids it was read with', async () => {
    const stored = async () =>
      (
        await t.db
          .selectFrom('activity_categories')
          .select('id')
          .where('workspace_id', '=', owner.workspaceId)
          .execute()
      )
        .map((r) => r.id)
        .sort();
    const [a, b] = await Promise.all([list(member), list(owner)]);
    expect(a.map((c) => c.id)).toEqual(b?.map((c) => c.id));
    expect(a.map((c) => c.name)).toEqual(expect.arrayContaining(['Development', 'Entertainment', 'Social media']));
    const social = a.find((c) => c.name === 'Social media');
    expect(social?.parentId).toBe(a.find((c) => c.name === 'Entertainment')?.id);
    // A read writes nothing.
    expect(await stored()).toEqual([]);

    const news = a.find((c) => c.name === 'News') as Category;
    const renamed = await call(owner.cookie, 'PATCH', ws(`/computer-time/categories/${news.id}`), {
      name: 'Headlines',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await stored()).toEqual(a.map((c) => c.id).sort());
    expect((await list(member)).find((c) => c.id === news.id)?.name).toBe('Headlines');
  });

  it('lets owners and admins add, change and delete categories, audited; others may only read', async () => {
    const before = await list(owner);
    const development = before.find((c) => c.name === 'Development') as Category;
    const added = await call(admin.cookie, 'POST', ws('/computer-time/categories'), {
      name: 'Code review',
      parentId: development.id,
      rules: [{ field: 'site', pattern: 'github.com/*/pull' }],
    });
    expect(added.statusCode, added.body).toBe(201);
    const review = added.json();
    expect(review).toMatchObject({ parentId: development.id, productivity: null });

    expect((await call(member.cookie, 'POST', ws('/computer-time/categories'), { name: 'Mine' })).statusCode).toBe(403);
    expect((await call(manager.cookie, 'DELETE', ws(`/computer-time/categories/${review.id}`))).statusCode).toBe(403);

    const changed = await call(owner.cookie, 'PATCH', ws(`/computer-time/categories/${review.id}`), {
      productivity: 'productive',
      name: 'Reviews',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ name: 'Reviews', productivity: 'productive' });
    const trail = await auditTrail(t.db, { subjectId: review.id });
    expect(trail.map((r) => r.action)).toEqual(['activity_category.created', 'activity_category.updated']);
    expect(trail[1]?.detail).toMatchObject({
      changes: { name: { from: 'Code review', to: 'Reviews' }, productivity: { from: null, to: 'productive' } },
    });

    // Deleting Development takes what is inside it.
    const gone = await call(owner.cookie, 'DELETE', ws(`/computer-time/categories/${development.id}`));
    expect(gone.statusCode, gone.body).toBe(204);
    const after = await list(member);
    expect(after.map((c) => c.id)).not.toContain(review.id);
    expect(after).toHaveLength(before.length - 1);
    const deleted = await auditTrail(t.db, { subjectId: development.id, action: 'activity_category.deleted' });
    expect(deleted[0]?.detail).toMatchObject({ name: 'Development', withInside: 1 });
  });

  it('refuses a category inside itself, too deep, beside one of its name, or of another workspace', async () => {
    const entertainment = (await list(owner)).find((c) => c.name === 'Entertainment') as Category;
    const social = (await list(owner)).find((c) => c.name === 'Social media') as Category;
    const loop = await call(owner.cookie, 'PATCH', ws(`/computer-time/categories/${entertainment.id}`), {
      parentId: social.id,
    });
    expect(loop.statusCode).toBe(422);
    expect(loop.json().error.fields.parentId).toMatch(/inside itself/);

    let parent = social.id;
    for (const name of ['Level 3', 'Level 4']) {
      const made = await call(owner.cookie, 'POST', ws('/computer-time/categories'), { name, parentId: parent });
      expect(made.statusCode, made.body).toBe(201);
      parent = made.json().id;
    }
    const deep = await call(owner.cookie, 'POST', ws('/computer-time/categories'), {
      name: 'Level 5',
      parentId: parent,
    });
    expect(deep.statusCode).toBe(422);
    expect(deep.json().error.fields.parentId).toMatch(/at most 4 deep/);

    const twin = await call(owner.cookie, 'POST', ws('/computer-time/categories'), {
      name: 'social MEDIA',
      parentId: entertainment.id,
    });
    expect(twin.statusCode).toBe(422);
    expect(twin.json().error.fields.name).toMatch(/already has this name/);

    const stars = await call(owner.cookie, 'POST', ws('/computer-time/categories'), {
      name: 'Stars',
      rules: [{ field: 'app', pattern: '**' }],
    });
    expect(stars.statusCode).toBe(422);

    const theirs = await call(outsider.cookie, 'GET', `/workspaces/${outsider.workspaceId}/computer-time/categories`);
    const foreign = theirs.json().items[0].id;
    const moved = await call(owner.cookie, 'PATCH', ws(`/computer-time/categories/${foreign}`), { name: 'Mine now' });
    expect(moved.statusCode).toBe(404);
    const under = await call(owner.cookie, 'POST', ws('/computer-time/categories'), { name: 'X', parentId: foreign });
    expect(under.statusCode).toBe(422);
  });
});

describe('a group’s own settings', () => {
  const groupSettings = (groupId: string, body: object, who = owner) =>
    call(who.cookie, 'PUT', ws(`/computer-time/group-settings/${groupId}`), body);
  const spansOf = (reader: SignedUp, userId: string) =>
    call(
      reader.cookie,
      'GET',
      ws(`/computer-time/spans?userId=${userId}&from=2026-06-01T00:00:00Z&to=2026-06-08T00:00:00Z`),
    );
  const readersOf = async (reader: SignedUp) => {
    const read = await call(reader.cookie, 'GET', ws('/computer-time/activities?from=2026-06-01&to=2026-06-07'));
    expect(read.statusCode, read.body).toBe(200);
    return new Set(read.json().items.map((item: { userId: string }) => item.userId));
  };

  it('lets one group’s managers see its people, keeps less of them, and the most private group wins', async () => {
    const groups = (await call(owner.cookie, 'GET', ws('/groups'))).json();
    const support = (groups.items ?? groups).find((g: { name: string }) => g.name === 'Support').id as string;
    // Support's people (the manager and `member`) and `other` each work an hour on June 2.
    const tokens = new Map<string, string>();
    for (const who of [member, other, manager]) {
      const { token } = await pair(who);
      tokens.set(who.userId, token);
      const sent = await upload(token, [span('2026-06-02T09:00:00Z', 60, { app: 'code', title: 'plan.md — Code' })]);
      expect(sent.statusCode, sent.body).toBe(200);
    }
    await call(owner.cookie, 'PUT', ws('/computer-time/settings'), {
      ...DEFAULT_COMPUTER_TIME_SETTINGS,
      keep: 'sites',
    });
    expect((await spansOf(manager, member.userId)).statusCode).toBe(403);
    expect(await readersOf(admin)).toEqual(new Set());

    // Only owners and admins choose, for a group of this workspace, with a choice that exists.
    expect((await groupSettings(support, { keep: null, managersSeeActivity: true }, manager)).statusCode).toBe(403);
    expect((await groupSettings(support, { keep: 'everything', managersSeeActivity: true })).statusCode).toBe(422);
    const foreign = (
      await call(outsider.cookie, 'POST', `/workspaces/${outsider.workspaceId}/groups`, { name: 'Theirs' })
    ).json().id;
    expect((await groupSettings(foreign, { keep: null, managersSeeActivity: true })).statusCode).toBe(404);

    const saved = await groupSettings(support, { keep: 'apps', managersSeeActivity: true });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await call(member.cookie, 'GET', ws('/computer-time/group-settings'))).json()).toEqual({
      items: [{ groupId: support, groupName: 'Support', keep: 'apps', managersSeeActivity: true }],
    });
    const trail = await auditTrail(t.db, { subjectId: support, action: 'computer_time_settings.updated' });
    expect(trail.at(-1)?.detail).toMatchObject({ group: 'Support', changes: { keep: { from: null, to: 'apps' } } });

    // Support's manager reads Support's people; admins read them too, and not `other`.
    expect((await spansOf(manager, member.userId)).statusCode).toBe(200);
    expect((await spansOf(admin, other.userId)).statusCode).toBe(403);
    expect(await readersOf(admin)).toEqual(new Set([member.userId, manager.userId]));
    expect(await readersOf(manager)).toEqual(new Set([member.userId, manager.userId]));

    // What the agent keeps of Support's people is applications only; `other` keeps sites.
    expect((await asDevice(tokens.get(member.userId) as string, 'GET', '/agent/config')).json().keep).toBe('apps');
    expect((await asDevice(tokens.get(other.userId) as string, 'GET', '/agent/config')).json().keep).toBe('sites');
    const later = [span('2026-06-03T09:00:00Z', 5, { app: 'firefox' })];
    for (const who of [member, other]) {
      expect((await upload(tokens.get(who.userId) as string, later)).statusCode).toBe(200);
    }
    const kept = await t.db
      .selectFrom('activity_spans')
      .select(['user_id', 'title', 'url'])
      .where('id', '=', later[0]?.id as string)
      .execute();
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ user_id: member.userId, title: null, url: null });

    // A sub-group of Support is covered by Support's choice; a second group that says no wins.
    const night = await call(owner.cookie, 'POST', ws('/groups'), { name: 'Night shift', parentId: support });
    const legal = await call(owner.cookie, 'POST', ws('/groups'), { name: 'Legal' });
    await call(owner.cookie, 'PUT', ws(`/groups/${night.json().id}/members/${other.userId}`));
    expect((await spansOf(admin, other.userId)).statusCode).toBe(200);
    const nightSpan = [span('2026-06-03T10:00:00Z', 5, { app: 'firefox' })];
    expect((await upload(tokens.get(other.userId) as string, nightSpan)).statusCode).toBe(200);
    const keptAtNight = await t.db
      .selectFrom('activity_spans')
      .select(['title', 'url'])
      .where('id', '=', nightSpan[0]?.id as string)
      .executeTakeFirst();
    expect(keptAtNight).toEqual({ title: null, url: null });
    await call(owner.cookie, 'PUT', ws(`/groups/${legal.json().id}/members/${member.userId}`));
    expect((await groupSettings(legal.json().id, { keep: null, managersSeeActivity: false })).statusCode).toBe(200);
    expect((await spansOf(manager, member.userId)).statusCode).toBe(403);
    expect(await readersOf(admin)).toEqual(new Set([manager.userId, other.userId]));

    // Both null returns a group to the workspace's settings.
    for (const id of [support, legal.json().id]) {
      expect((await groupSettings(id, { keep: null, managersSeeActivity: null })).statusCode).toBe(200);
    }
    expect((await call(owner.cookie, 'GET', ws('/computer-time/group-settings'))).json()).toEqual({ items: [] });
    expect(await readersOf(admin)).toEqual(new Set());
    await call(owner.cookie, 'PUT', ws('/computer-time/settings'), DEFAULT_COMPUTER_TIME_SETTINGS);
  });
});
