import { describe, expect, it } from 'vitest';
import { signUp, useTestApp } from '../../../test/harness.js';

const ctx = useTestApp();
const call: typeof ctx.call = (...args) => ctx.call(...args);

describe('duration format preference', () => {
  it('is h:mm:ss for a new user, so seconds show by default', async () => {
    const { cookie } = await signUp(ctx.t.app);
    const me = await call('GET', '/api/v1/me', cookie);
    expect(me.statusCode).toBe(200);
    expect(me.json().user.durationFormat).toBe('h:mm:ss');
  });

  it.each(['h:mm', 'decimal', 'h:mm:ss'])('saves %s and shows it on the next GET', async (durationFormat) => {
    const { cookie } = await signUp(ctx.t.app);
    const saved = await call('PATCH', '/api/v1/me', cookie, { durationFormat });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().user.durationFormat).toBe(durationFormat);
    expect((await call('GET', '/api/v1/me', cookie)).json().user.durationFormat).toBe(durationFormat);
  });

  it('leaves the other settings as they were', async () => {
    const { cookie } = await signUp(ctx.t.app);
    await call('PATCH', '/api/v1/me', cookie, { timeFormat: '12h' });
    await call('PATCH', '/api/v1/me', cookie, { durationFormat: 'decimal' });
    const user = (await call('GET', '/api/v1/me', cookie)).json().user;
    expect(user).toMatchObject({ timeFormat: '12h', durationFormat: 'decimal' });
    await call('PATCH', '/api/v1/me', cookie, { name: 'Grace' });
    expect((await call('GET', '/api/v1/me', cookie)).json().user.durationFormat).toBe('decimal');
  });

  it('refuses a format it does not know, naming the field', async () => {
    const { cookie } = await signUp(ctx.t.app);
    const response = await call('PATCH', '/api/v1/me', cookie, { durationFormat: 'hh:mm' });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.fields.durationFormat).toBeTruthy();
    expect((await call('GET', '/api/v1/me', cookie)).json().user.durationFormat).toBe('h:mm:ss');
  });

  it('answers 401 without a session', async () => {
    expect((await call('PATCH', '/api/v1/me', undefined, { durationFormat: 'h:mm' })).statusCode).toBe(401);
  });
});
