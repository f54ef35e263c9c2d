import { demoRequestMessages, limitMessages, waitText } from '@sundial/core';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { type Inbox, startInbox } from '../../../test/smtp.js';

const OPERATOR = 'sales@sundial.example';

let t: TestApp;
let inbox: Inbox;
let ipCounter = 0;

beforeAll(async () => {
  inbox = await startInbox();
  t = await createTestApp({
    SMTP_URL: inbox.url,
    OPERATOR_EMAIL: OPERATOR,
    RATE_LIMIT_DEMO_PER_IP: '5',
    RATE_LIMIT_DEMO_PER_EMAIL: '3',
  });
});
afterAll(async () => {
  await t.close();
  await inbox.close();
});

const validRequest = {
  name: 'Ada Lovelace',
  email: 'Ada@Analytical.example',
  company: 'Analytical Engines Ltd',
  teamSize: '11-50',
  message: 'We bill clients by the hour and want approvals.',
};

/** Each test asks from its own address so the hourly limit of one does not reach another. */
const fromNewIp = () => `203.0.113.${++ipCounter}`;
let emailCounter = 0;
/** A request from a work e-mail of its own, for the same reason. */
const fromNewEmail = () => ({ ...validRequest, email: `ada.${Date.now()}.${++emailCounter}@analytical.example` });

/** Checks a refusal: 429, a message with the wait in words, and Retry-After within the hour. */
function expectRefused(response: LightMyRequestResponse, message: (wait: string) => string) {
  expect(response.statusCode).toBe(429);
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(3600);
  expect(response.json().error.code).toBe('too_many_requests');
  // The message says the same wait as the header, in words.
  expect(response.json().error.message).toBe(message(waitText(retryAfter)));
}

const post = (payload: object, options: { ip?: string; headers?: Record<string, string> } = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/demo-requests',
    payload,
    remoteAddress: options.ip ?? fromNewIp(),
    headers: options.headers,
  });

describe('demo requests', () => {
  it('stores a request from a visitor without a session and e-mails it to the operator', async () => {
    const response = await post(validRequest);
    expect(response.statusCode).toBe(201);
    expect(response.json().message).toBe(demoRequestMessages.received);

    const row = await t.db
      .selectFrom('demo_requests')
      .selectAll()
      .where('id', '=', response.json().id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@analytical.example',
      company: 'Analytical Engines Ltd',
      team_size: '11-50',
    });

    const mail = await inbox.waitFor(OPERATOR);
    expect(mail.subject).toBe('Demo request: Analytical Engines Ltd (11–50 people)');
    expect(mail.text).toContain('Work e-mail: ada@analytical.example');
    expect(mail.text).toContain('We bill clients by the hour and want approvals.');
  });

  it('accepts a request without a message', async () => {
    const { message: _, ...withoutMessage } = validRequest;
    const response = await post(withoutMessage);
    expect(response.statusCode).toBe(201);
    expect((await inbox.waitFor(OPERATOR)).text).toContain('(none)');
  });

  it('names every field that is missing or wrong, with a message a person can act on', async () => {
    const response = await post({ name: ' ', email: 'not-an-address', company: '', teamSize: 'huge' });
    expect(response.statusCode).toBe(422);
    expect(response.json().error).toMatchObject({
      code: 'validation_failed',
      fields: {
        name: demoRequestMessages.nameRequired,
        email: demoRequestMessages.emailInvalid,
        company: demoRequestMessages.companyRequired,
        teamSize: demoRequestMessages.teamSizeRequired,
      },
    });
  });

  it('refuses a company name that would break the e-mail subject over lines', async () => {
    const response = await post({ ...validRequest, company: 'Evil\r\nBcc: everyone@example.com' });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.fields.company).toBe(demoRequestMessages.oneLine);
  });

  it('allows five requests an hour from one address and refuses the sixth with 429, storing nothing', async () => {
    const ip = fromNewIp();
    for (let i = 0; i < 5; i++) expect((await post(fromNewEmail(), { ip })).statusCode).toBe(201);
    const sixthRequest = fromNewEmail();
    const sixth = await post(sixthRequest, { ip });
    expectRefused(sixth, limitMessages.demoPerIp);
    const stored = await t.db
      .selectFrom('demo_requests')
      .select('id')
      .where('email', '=', sixthRequest.email)
      .execute();
    expect(stored).toHaveLength(0);
    expect((await post(fromNewEmail())).statusCode).toBe(201);
  });

  it('keeps to five an hour when a batch of requests from one address arrives at once', async () => {
    const ip = fromNewIp();
    const answers = await Promise.all(Array.from({ length: 9 }, () => post(fromNewEmail(), { ip })));
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(5);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(4);
    const stored = await t.db.selectFrom('demo_requests').select('id').where('ip', '=', ip).execute();
    expect(stored).toHaveLength(5);
  });

  it('allows three requests an hour for one work e-mail, from any address, and refuses the fourth', async () => {
    const request = fromNewEmail();
    for (let i = 0; i < 3; i++) expect((await post(request)).statusCode).toBe(201);
    const fourth = await post(request);
    expectRefused(fourth, limitMessages.demoPerEmail);
    const stored = await t.db.selectFrom('demo_requests').select('id').where('email', '=', request.email).execute();
    expect(stored).toHaveLength(3);
    expect((await post(fromNewEmail())).statusCode).toBe(201);
  });

  it('refuses a request posted from another site', async () => {
    const response = await post(validRequest, { headers: { origin: 'https://evil.example' } });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('cross_origin');
  });
});

describe('demo requests without OPERATOR_EMAIL', () => {
  it('go to the address of MAIL_FROM, kept in the outbox when there is no SMTP server', async () => {
    const bare = await createTestApp({ MAIL_FROM: 'Sundial Team <team@sundial.example>' });
    try {
      const response = await bare.app.inject({ method: 'POST', url: '/api/v1/demo-requests', payload: validRequest });
      expect(response.statusCode).toBe(201);
      const mail = await bare.db.selectFrom('outbox').select(['to_address', 'subject']).executeTakeFirstOrThrow();
      expect(mail).toEqual({ to_address: 'team@sundial.example', subject: expect.stringContaining('Demo request') });
    } finally {
      await bare.close();
    }
  });
});
