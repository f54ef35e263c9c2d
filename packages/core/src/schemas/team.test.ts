import { describe, expect, it } from 'vitest';
import { seatLimit } from '../entitlements.js';
import { inviteBody, splitEmails } from './team.js';

describe('team rules', () => {
  it('has no seat limit on Free (and the trial), and the licenses on a paid plan', () => {
    expect(seatLimit({ plan: 'free', licenses: 1 })).toBeNull();
    expect(seatLimit({ plan: 'basic', licenses: 3 })).toBe(3);
    expect(seatLimit({ plan: 'pro', licenses: 12 })).toBe(12);
  });

  it('splits pasted addresses and drops duplicates', () => {
    expect(splitEmails('Ann@Example.com, bob@example.com;\n<carl@example.com>  ann@example.com')).toEqual([
      'ann@example.com',
      'bob@example.com',
      'carl@example.com',
    ]);
  });

  it('needs at least one valid e-mail and defaults the role to member', () => {
    expect(inviteBody.safeParse({ emails: [] }).success).toBe(false);
    expect(inviteBody.safeParse({ emails: ['not-an-email'] }).success).toBe(false);
    expect(inviteBody.parse({ emails: ['a@example.com'] })).toMatchObject({ role: 'member' });
  });
});
