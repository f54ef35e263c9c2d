import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, openTestDb, STRONG_PASSWORD, type TestApp, uniqueEmail } from '../test/harness.js';
import { migrateDownAll, migrateToLatest } from './db/migrate.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('operations', () => {
  it('answers health and readiness', async () => {
    expect((await t.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject('/readyz')).json()).toEqual({ status: 'ready' });
  });

  it('tags every answer with a request id, and keeps a caller-given one', async () => {
    const fresh = await t.app.inject('/healthz');
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const given = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'trace-me-42' } });
    expect(given.headers['x-request-id']).toBe('trace-me-42');
  });

  it('serves an OpenAPI 3.1 document built from the route schemas, and its docs page', async () => {
    const spec = (await t.app.inject('/api/docs/json')).json();
    expect(spec.openapi).toBe('3.1.0');
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/auth/signup',
        '/api/v1/auth/login',
        '/api/v1/me',
        '/api/v1/workspaces/{workspaceId}',
      ]),
    );
    expect(
      spec.paths['/api/v1/auth/signup'].post.requestBody.content['application/json'].schema.properties,
    ).toHaveProperty('email');
    const page = await t.app.inject('/api/docs');
    expect([200, 302]).toContain(page.statusCode);
  });

  it('answers unknown API routes in the one error shape', async () => {
    const response = await t.app.inject('/api/v1/nothing-here');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: { code: 'not_found', message: 'No route for GET /api/v1/nothing-here.' },
    });
  });

  it('answers malformed JSON with 400 in the one error shape', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('bad_request');
  });

  it('refuses a state-changing request sent from another site', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/signup',
      headers: { origin: 'https://evil.example' },
      payload: { email: uniqueEmail(), password: STRONG_PASSWORD },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('cross_origin');
  });

  it('lists the outbox at /dev/mail outside production', async () => {
    const response = await t.app.inject('/dev/mail');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('Outbox');
  });
});

describe('migrations', () => {
  it('run up, down and up again on a fresh database', async () => {
    const { db, close } = await openTestDb();
    try {
      expect(await migrateToLatest(db)).toContain('202611230100_create_accounts');
      await migrateDownAll(db);
      expect(await migrateToLatest(db)).toContain('202611230100_create_accounts');
      expect(await migrateToLatest(db)).toEqual([]);
    } finally {
      await close();
    }
  });
});
