import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedUp, signUp, type TestApp } from '../../test/harness.js';
import type { TokenAuthenticator } from './auth.js';

// A test-only token authenticator stands in for API keys and device tokens: the bearer slot of
// platform/auth.ts must carry its user to the routes, and refuse what it does not know.
const tokens = new Map<string, string>();
const testTokens: TokenAuthenticator = {
  async authenticate(token) {
    const userId = tokens.get(token);
    if (!userId) return null;
    const user = await t.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
    return user ? { user, method: 'token' } : null;
  },
};

let t: TestApp;
let ann: SignedUp;
let bob: SignedUp;

beforeAll(async () => {
  t = await createTestApp({}, { tokenAuthenticators: [testTokens] });
  ann = await signUp(t.app);
  bob = await signUp(t.app);
  tokens.set('ann-token', ann.userId);
});
afterAll(async () => {
  await t?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('bearer tokens', () => {
  it('reach a route as the token’s user, in their workspaces', async () => {
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer('ann-token') });
    expect(me.statusCode).toBe(200);
    expect(me.json().user.id).toBe(ann.userId);

    const created = await t.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${ann.workspaceId}/projects`,
      headers: bearer('ann-token'),
      payload: { name: 'Signed by a token' },
    });
    expect(created.statusCode).toBe(201);
    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${ann.workspaceId}/projects`,
      headers: bearer('ann-token'),
    });
    expect(listed.json().items.map((p: { name: string }) => p.name)).toContain('Signed by a token');
  });

  it('keep the workspace rule: another workspace is a 404', async () => {
    const other = await t.app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${bob.workspaceId}/projects`,
      headers: bearer('ann-token'),
    });
    expect(other.statusCode).toBe(404);
  });

  it('answer 401 for an unknown token, even beside a valid session cookie', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/v1/me',
      headers: { ...bearer('not-a-token'), cookie: bob.cookie },
    });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer');
    expect(response.json().error).toMatchObject({
      code: 'unauthenticated',
      message: 'The bearer token is not valid: it is unknown, expired or revoked.',
    });
  });

  it('answer 401 for a Bearer header without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: 'Bearer' } });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.message).toMatch(/Bearer <token>/);
  });

  it('leave other schemes to the session (a proxy’s Basic login in front of the app)', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/v1/me',
      headers: { authorization: 'Basic dXNlcjpwYXNz', cookie: bob.cookie },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.id).toBe(bob.userId);
  });
});
