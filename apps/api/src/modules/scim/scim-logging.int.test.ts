import { describe, expect, it } from 'vitest';
import { signUp, useLoggedTestApp } from '../../../test/harness.js';

const logged = useLoggedTestApp();

describe('SCIM tokens in the log', () => {
  it('never appear: not when made, not when used, not when refused', async () => {
    const owner = await signUp(logged.app);
    const made = await logged.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${owner.workspaceId}/scim-token`,
      headers: { cookie: owner.cookie },
    });
    const { token } = made.json() as { token: string };
    expect(token).toMatch(/^sdscim_/);
    const used = await logged.app.inject({
      method: 'GET',
      url: '/scim/v2/Users?filter=userName%20eq%20%22a%40b.c%22',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(used.statusCode).toBe(200);
    await logged.app.inject({ method: 'GET', url: '/scim/v2/Users', headers: { authorization: `Bearer ${token}x` } });
    expect(logged.lines.some((line) => line.includes('/scim/v2/Users'))).toBe(true);
    expect(logged.lines.filter((line) => line.includes(token.slice(7)))).toEqual([]);
  });
});
