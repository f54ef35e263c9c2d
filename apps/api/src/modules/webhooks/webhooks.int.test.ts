import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, createTestApp, joinWorkspace, type SignedUp, signUp, type TestApp } from '../../../test/harness.js';
import { newId } from '../../platform/ids.js';
import { SIGNATURE_HEADER, verifySignature } from '../../platform/signature.js';
import { webhookReasons } from './webhooks.service.js';

/** What an endpoint path does: echo the challenge (or a wrong one), fail its first N events, or all. */
interface PathBehaviour {
  echo?: 'right' | 'wrong';
  failFirst?: number;
  failAlways?: boolean;
}

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: { type: string; challenge?: string; [key: string]: unknown };
}

/** A webhook receiver on 127.0.0.1 that records every request. */
async function startReceiver() {
  const requests: Received[] = [];
  const behaviours = new Map<string, PathBehaviour>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      const json = JSON.parse(body);
      requests.push({ path, headers: req.headers, body, json });
      const behaviour = behaviours.get(path) ?? {};
      if (json.type === 'webhook.validate') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ challenge: behaviour.echo === 'wrong' ? 'not-it' : json.challenge }));
        return;
      }
      if (behaviour.failAlways || (behaviour.failFirst ?? 0) > 0) {
        if (behaviour.failFirst) behaviour.failFirst -= 1;
        res.statusCode = 503;
        res.end('down for maintenance');
        return;
      }
      res.end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (path: string, behaviour: PathBehaviour = { echo: 'right' }) => {
      behaviours.set(path, behaviour);
      return `http://127.0.0.1:${port}${path}`;
    },
    /** Events (not challenges) received on a path. */
    events: (path: string) => requests.filter((r) => r.path === path && r.json.type !== 'webhook.validate'),
    challenges: (path: string) => requests.filter((r) => r.path === path && r.json.type === 'webhook.validate'),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let t: TestApp;
let call: ReturnType<typeof caller>;
let at = Date.now();
const now = () => new Date(at);

beforeAll(async () => {
  receiver = await startReceiver();
  // No polling loop: the test runs due jobs itself, on its own clock.
  t = await createTestApp({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', JOBS_ENABLED: 'false' }, { now });
  call = caller(t.app);
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const base = (who: SignedUp) => `/api/v1/workspaces/${who.workspaceId}`;
const drain = () => t.app.services.jobs.drain();

async function createWebhook(who: SignedUp, body: { url: string; events: string[]; description?: string }) {
  const response = await call('POST', `${base(who)}/webhooks`, who.cookie, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; status: string; secret: string; validationError: string | null };
}

async function createProject(who: SignedUp, name = `Project ${newId()}`) {
  const response = await call('POST', `${base(who)}/projects`, who.cookie, { name });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string };
}

async function deliveries(who: SignedUp, webhookId: string) {
  const response = await call('GET', `${base(who)}/webhooks/${webhookId}/deliveries`, who.cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    items: { id: string; eventType: string; state: string; attempts: { statusCode: number; ok: boolean }[] }[];
    nextCursor: string | null;
  };
}

describe('webhook batches', () => {
  it('sends a burst larger than a batch once per event, even with two drains of the endpoint side by side', async () => {
    const owner = await signUp(t.app);
    const hook = await createWebhook(owner, { url: receiver.url('/burst'), events: ['project.created'] });
    const made: string[] = [];
    for (let i = 0; i < 150; i++) made.push((await createProject(owner, `Burst ${i}`)).id);
    const { webhooks } = t.app.services;
    await webhooks.fanOut(owner.workspaceId);
    await Promise.all([webhooks.drain(owner.workspaceId, hook.id), webhooks.drain(owner.workspaceId, hook.id)]);

    const received = receiver
      .events('/burst')
      .map((e) => ({ id: String(e.json.id), subjectId: String(e.json.subjectId) }));
    expect(received).toHaveLength(150);
    expect(new Set(received.map((e) => e.id)).size).toBe(150);
    expect(new Set(received.map((e) => e.subjectId))).toEqual(new Set(made));
    const rows = await t.db
      .selectFrom('webhook_deliveries')
      .select(['state', 'attempts', 'leased_until'])
      .where('webhook_id', '=', hook.id)
      .execute();
    expect(rows).toHaveLength(150);
    expect(rows.every((row) => row.state === 'succeeded' && row.attempts === 1 && row.leased_until === null)).toBe(
      true,
    );
    const attempts = await t.db
      .selectFrom('webhook_delivery_attempts as a')
      .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('d.webhook_id', '=', hook.id)
      .executeTakeFirstOrThrow();
    expect(Number(attempts.n)).toBe(150);
  });

  it('sends again, once, what a process that died mid-batch had taken, when its lease ends', async () => {
    const owner = await signUp(t.app);
    const hook = await createWebhook(owner, { url: receiver.url('/orphan'), events: ['project.created'] });
    await createProject(owner);
    await t.app.services.webhooks.fanOut(owner.workspaceId);
    // As a batch leaves it when its process dies after taking it: leased, no drain queued.
    await t.db
      .updateTable('webhook_deliveries')
      .set({ leased_until: new Date(at + 5 * 60_000) })
      .where('webhook_id', '=', hook.id)
      .execute();
    await t.db.deleteFrom('jobs').where('name', '=', 'webhooks.drain').execute();
    await drain();
    expect(receiver.events('/orphan')).toHaveLength(0);

    at += 5 * 60_000 + 1000;
    await drain();
    expect(receiver.events('/orphan')).toHaveLength(1);
    await drain();
    expect(receiver.events('/orphan')).toHaveLength(1);
    expect((await deliveries(owner, hook.id)).items).toMatchObject([{ state: 'succeeded', attempts: [{ ok: true }] }]);
  });
});

describe('webhook endpoint validation', () => {
  it('makes a webhook active when its endpoint echoes the signed challenge', async () => {
    const owner = await signUp(t.app);
    const hook = await createWebhook(owner, { url: receiver.url('/valid'), events: ['*'], description: 'All' });
    expect(hook).toMatchObject({ status: 'active', validationError: null });
    expect(hook.secret).toMatch(/^whsec_/);
    const [challenge] = receiver.challenges('/valid');
    expect(challenge?.json.challenge).toEqual(expect.any(String));
    expect(() =>
      verifySignature(challenge?.body ?? '', challenge?.headers[SIGNATURE_HEADER] as string, hook.secret, now()),
    ).not.toThrow();

    const audit = await t.db.selectFrom('audit_log').select('action').where('subject_id', '=', hook.id).execute();
    expect(audit.map((row) => row.action)).toEqual(['webhook.created']);
    // The secret is sealed, never stored as it is.
    const stored = await t.db
      .selectFrom('webhooks')
      .select('secret_sealed')
      .where('id', '=', hook.id)
      .executeTakeFirst();
    expect(stored?.secret_sealed).not.toContain(hook.secret);
    const revealed = await call('GET', `${base(owner)}/webhooks/${hook.id}/secret`, owner.cookie);
    expect(revealed.json()).toEqual({ secret: hook.secret });
  });

  it('keeps a webhook pending, with the error, when the endpoint answers without the challenge; validating again activates it', async () => {
    const owner = await signUp(t.app);
    const hook = await createWebhook(owner, { url: receiver.url('/wrong-echo', { echo: 'wrong' }), events: ['*'] });
    expect(hook.status).toBe('pending');
    expect(hook.validationError).toMatch(/without the challenge/);

    // Nothing is delivered while pending.
    await createProject(owner);
    await drain();
    expect(receiver.events('/wrong-echo')).toHaveLength(0);

    receiver.url('/wrong-echo', { echo: 'right' });
    const validated = await call('POST', `${base(owner)}/webhooks/${hook.id}/validate`, owner.cookie);
    expect(validated.statusCode, validated.body).toBe(200);
    expect(validated.json()).toMatchObject({ status: 'active', validationError: null });
  });

  it('lists the event types with a description each', async () => {
    const owner = await signUp(t.app);
    const response = await call('GET', `${base(owner)}/webhook-events`, owner.cookie);
    expect(response.statusCode).toBe(200);
    const types = response.json().items.map((item: { type: string }) => item.type);
    expect(types).toContain('project.created');
    expect(types).toContain('invite.accepted');
    expect(types.some((type: string) => type.startsWith('webhook.'))).toBe(false);
  });
});

describe('webhook deliveries', () => {
  it('delivers a new project as one signed event with the specified payload', async () => {
    const owner = await signUp(t.app);
    const hook = await createWebhook(owner, { url: receiver.url('/projects'), events: ['project.created'] });
    const project = await createProject(owner, 'Apollo');
    await drain();

    const events = receiver.events('/projects');
    expect(events).toHaveLength(1);
    const [event] = events;
    if (!event) throw new Error('no event');
    expect(event.headers['content-type']).toBe('application/json');
    expect(event.headers['user-agent']).toBe('Sundial-Webhooks/1');
    expect(event.headers['sundial-event-type']).toBe('project.created');
    expect(() =>
      verifySignature(event.body, event.headers[SIGNATURE_HEADER] as string, hook.secret, now()),
    ).not.toThrow();
    expect(() =>
      verifySignature(event.body, event.headers[SIGNATURE_HEADER] as string, 'whsec_other', now()),
    ).toThrow();

    const record = await t.db
      .selectFrom('audit_log')
      .select(['id', 'created_at'])
      .where('subject_id', '=', project.id)
      .where('action', '=', 'project.created')
      .executeTakeFirstOrThrow();
    const me = await call('GET', '/api/v1/me', owner.cookie);
    expect(event.json).toEqual({
      id: record.id,
      type: 'project.created',
      createdAt: new Date(record.created_at).toISOString(),
      workspaceId: owner.workspaceId,
      actor: { id: owner.userId, name: me.json().user.name, email: owner.email },
      subjectId: project.id,
      data: {},
    });
    expect(event.headers['sundial-event-id']).toBe(record.id);

    const log = await deliveries(owner, hook.id);
    expect(log.items).toMatchObject([
      { eventType: 'project.created', state: 'succeeded', attempts: [{ ok: true, statusCode: 200 }] },
    ]);
  });

  it('sends each webhook only the types it subscribed to, and never webhooks’ own changes', async () => {
    const owner = await signUp(t.app);
    await createWebhook(owner, { url: receiver.url('/clients-only'), events: ['client.created'] });
    await createWebhook(owner, { url: receiver.url('/everything'), events: ['*'] });
    await createProject(owner);
    const client = await call('POST', `${base(owner)}/clients`, owner.cookie, { name: 'Acme', currency: 'eur' });
    expect(client.statusCode, client.body).toBe(201);
    // A third webhook's creation is audited, but not offered as an event.
    await createWebhook(owner, { url: receiver.url('/later'), events: ['*'] });
    await drain();

    expect(receiver.events('/clients-only').map((e) => e.json.type)).toEqual(['client.created']);
    expect(receiver.events('/everything').map((e) => e.json.type)).toEqual(['project.created', 'client.created']);
    expect(receiver.events('/later')).toHaveLength(0);
  });

  it('retries a failing endpoint with backoff, logging each attempt, and redelivers on request', async () => {
    const owner = await signUp(t.app);
    const hook = await createWebhook(owner, {
      url: receiver.url('/flaky', { echo: 'right', failFirst: 2 }),
      events: ['project.created'],
    });
    await createProject(owner);
    await drain();
    expect(receiver.events('/flaky')).toHaveLength(1);
    // Not before its backoff: 10 s, then 20 s.
    await drain();
    expect(receiver.events('/flaky')).toHaveLength(1);
    at += 10_000;
    await drain();
    expect(receiver.events('/flaky')).toHaveLength(2);
    at += 20_000;
    await drain();
    expect(receiver.events('/flaky')).toHaveLength(3);

    const log = await deliveries(owner, hook.id);
    expect(log.items).toMatchObject([
      {
        state: 'succeeded',
        attempts: [
          { ok: false, statusCode: 503, error: 'Answered 503.', responseBody: 'down for maintenance' },
          { ok: false, statusCode: 503 },
          { ok: true, statusCode: 200, responseBody: 'thanks' },
        ],
      },
    ]);
    const webhook = await call('GET', `${base(owner)}/webhooks/${hook.id}`, owner.cookie);
    expect(webhook.json().failingSince).toBeNull();

    const first = log.items[0]?.id;
    const redelivered = await call(
      'POST',
      `${base(owner)}/webhooks/${hook.id}/deliveries/${first}/redeliver`,
      owner.cookie,
    );
    expect(redelivered.statusCode, redelivered.body).toBe(200);
    await drain();
    const events = receiver.events('/flaky');
    expect(events).toHaveLength(4);
    expect(events[3]?.body).toBe(events[2]?.body);
    const after = await deliveries(owner, hook.id);
    expect(after.items.map((d) => [d.id, d.state])).toEqual([
      [redelivered.json().id, 'succeeded'],
      [first, 'succeeded'],
    ]);

    const page = await call('GET', `${base(owner)}/webhooks/${hook.id}/deliveries?limit=1`, owner.cookie);
    expect(page.json().items.map((d: { id: string }) => d.id)).toEqual([redelivered.json().id]);
    const next = await call(
      'GET',
      `${base(owner)}/webhooks/${hook.id}/deliveries?limit=1&cursor=${page.json().nextCursor}`,
      owner.cookie,
    );
    expect(next.json()).toMatchObject({ items: [{ id: first }], nextCursor: null });
  });

  it('signs with the new secret once it is rotated', async () => {
    const owner = await signUp(t.app);
    const hook = await createWebhook(owner, { url: receiver.url('/rotated'), events: ['project.created'] });
    const rotated = await call('POST', `${base(owner)}/webhooks/${hook.id}/secret/rotate`, owner.cookie);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const secret = rotated.json().secret;
    expect(secret).not.toBe(hook.secret);
    await createProject(owner);
    await drain();
    const [event] = receiver.events('/rotated');
    expect(() =>
      verifySignature(event?.body ?? '', event?.headers[SIGNATURE_HEADER] as string, secret, now()),
    ).not.toThrow();
  });

  it('turns off an endpoint that failed for 3 days and e-mails its creator', async () => {
    const owner = await signUp(t.app);
    const hook = await createWebhook(owner, {
      url: receiver.url('/down', { echo: 'right', failAlways: true }),
      events: ['*'],
    });
    await createProject(owner);
    await drain();
    const failing = await call('GET', `${base(owner)}/webhooks/${hook.id}`, owner.cookie);
    expect(failing.json()).toMatchObject({ status: 'active', failingSince: now().toISOString() });

    at += 3 * 86_400_000 + 60_000;
    await createProject(owner);
    await drain();

    const webhook = await call('GET', `${base(owner)}/webhooks/${hook.id}`, owner.cookie);
    expect(webhook.json()).toMatchObject({
      status: 'disabled',
      enabled: false,
      disabledReason: webhookReasons.failing,
    });
    const mail = await t.db
      .selectFrom('outbox')
      .select(['subject', 'text_body'])
      .where('to_address', '=', owner.email)
      .where('subject', 'like', 'Sundial turned off your webhook%')
      .execute();
    expect(mail).toHaveLength(1);
    expect(mail[0]?.text_body).toContain(receiver.url('/down', { echo: 'right', failAlways: true }));

    // Nothing more goes out while it is off.
    const before = receiver.events('/down').length;
    await createProject(owner);
    at += 3_600_000;
    await drain();
    expect(receiver.events('/down')).toHaveLength(before);
  });

  it('stops a webhook whose creator no longer administers the workspace', async () => {
    const owner = await signUp(t.app);
    const admin = { ...(await joinWorkspace(t, owner.workspaceId, 'admin')), workspaceId: owner.workspaceId };
    const hook = await createWebhook(admin, { url: receiver.url('/demoted'), events: ['*'] });
    const demoted = await call('PATCH', `${base(owner)}/members/${admin.userId}`, owner.cookie, { role: 'manager' });
    expect(demoted.statusCode, demoted.body).toBe(200);
    await createProject(owner);
    await drain();

    expect(receiver.events('/demoted')).toHaveLength(0);
    const webhook = await call('GET', `${base(owner)}/webhooks/${hook.id}`, owner.cookie);
    expect(webhook.json()).toMatchObject({ status: 'disabled', disabledReason: webhookReasons.creatorLeft });
  });
});

describe('webhook access', () => {
  it('is for owners and admins: a manager or member gets 403, an outsider 404', async () => {
    const owner = await signUp(t.app);
    const hook = await createWebhook(owner, { url: receiver.url('/access'), events: ['*'] });
    const outsider = await signUp(t.app);
    for (const role of ['manager', 'member'] as const) {
      const who = await joinWorkspace(t, owner.workspaceId, role);
      for (const [method, url] of [
        ['GET', `${base(owner)}/webhooks`],
        ['GET', `${base(owner)}/webhooks/${hook.id}/secret`],
      ] as const) {
        expect((await call(method, url, who.cookie)).statusCode).toBe(403);
      }
      const create = await call('POST', `${base(owner)}/webhooks`, who.cookie, {
        url: receiver.url('/x'),
        events: ['*'],
      });
      expect(create.statusCode).toBe(403);
    }
    expect((await call('GET', `${base(owner)}/webhooks/${hook.id}`, outsider.cookie)).statusCode).toBe(404);
    // Another workspace's webhook is not found from one's own.
    expect((await call('GET', `${base(outsider)}/webhooks/${hook.id}`, outsider.cookie)).statusCode).toBe(404);
  });
});

describe('private and local targets', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await createTestApp({ JOBS_ENABLED: 'false' }, { now });
  });
  afterAll(() => strict?.close());

  it.each([
    ['http://127.0.0.1:9/hook', '127.0.0.1'],
    ['http://10.1.2.3/hook', '10.1.2.3'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254'],
    ['http://[::1]:9/hook', '::1'],
    ['http://localhost:9/hook', 'private or local'],
    ['http://[::ffff:127.0.0.1]/hook', '127.0.0.1'],
    ['ftp://example.com/hook', 'Only http:// and https://'],
  ])('refuses %s at creation (422 on url)', async (url, said) => {
    const owner = await signUp(strict.app);
    const response = await caller(strict.app)('POST', `${base(owner)}/webhooks`, owner.cookie, { url, events: ['*'] });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().error.fields.url).toContain(said);
  });

  it('logs a failed attempt when the target turned private after creation (DNS changed)', async () => {
    const owner = await signUp(strict.app);
    const { secrets, jobs } = strict.app.services;
    // As if the name had resolved to a public address when the webhook was made.
    const id = newId();
    await strict.db
      .insertInto('webhooks')
      .values({
        id,
        workspace_id: owner.workspaceId,
        created_by: owner.userId,
        url: `http://localhost:${receiver.port}/rebound`,
        events: JSON.stringify(['*']),
        secret_sealed: secrets.seal('whsec_test', `webhook:${id}`),
        validated_at: new Date(),
      })
      .execute();
    await strict.db.insertInto('webhook_cursors').values({ workspace_id: owner.workspaceId, seq: 0 }).execute();
    const project = await caller(strict.app)('POST', `${base(owner)}/projects`, owner.cookie, { name: 'Rebound' });
    expect(project.statusCode).toBe(201);
    // This process did not make the webhook, so the minute's fan-out (run here at once) finds it.
    await strict.app.services.webhooks.fanOut(owner.workspaceId);
    await jobs.drain();

    expect(receiver.events('/rebound')).toHaveLength(0);
    const attempts = await strict.db.selectFrom('webhook_delivery_attempts').select(['ok', 'error']).execute();
    expect(attempts).toEqual([{ ok: false, error: expect.stringMatching(/private or local address/) }]);
  });
});
