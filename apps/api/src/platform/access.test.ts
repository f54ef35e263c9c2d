import { describe, expect, it } from 'vitest';
import { assertCan, assertFeature, mayEditProject, projectViewer } from './access.js';
import type { MembershipWithWorkspace } from './actor.js';
import { AppError } from './errors.js';

const DAY = 86_400_000;
const now = new Date('2026-03-10T12:00:00Z');

function actorOn(
  plan: 'free' | 'basic' | 'pro',
  trialEndsAt: Date | null,
  role: MembershipWithWorkspace['role'] = 'owner',
) {
  const workspace = { plan, trial_ends_at: trialEndsAt } as MembershipWithWorkspace['workspace'];
  return { membership: { workspace, role, status: 'active' as const } };
}

function thrown(run: () => void): AppError | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  return undefined;
}

describe('assertFeature', () => {
  it('locks nothing during the trial', () => {
    expect(
      thrown(() => assertFeature(actorOn('free', new Date(now.getTime() + DAY)), 'invoicing', now)),
    ).toBeUndefined();
  });

  it('answers 403 plan_limit_reached when the plan lacks the feature', () => {
    const error = thrown(() => assertFeature(actorOn('free', new Date(now.getTime() - DAY)), 'invoicing', now));
    expect(error).toMatchObject({ code: 'plan_limit_reached', status: 403 });
    expect(error?.message).toBe('Invoicing needs the Pro plan. Upgrade to use it.');
  });

  it('lets a plan use its features, from an actor or a workspace row', () => {
    expect(thrown(() => assertFeature(actorOn('basic', null), 'export', now))).toBeUndefined();
    expect(thrown(() => assertFeature({ plan: 'basic', trial_ends_at: null }, 'approvals', now))).toMatchObject({
      code: 'plan_limit_reached',
    });
  });
});

describe('assertCan and the project rules', () => {
  it('goes by the permission matrix', () => {
    expect(thrown(() => assertCan(actorOn('free', null, 'admin'), 'members:manage'))).toBeUndefined();
    expect(thrown(() => assertCan(actorOn('free', null, 'member'), 'members:manage'))).toMatchObject({
      code: 'forbidden',
      status: 403,
    });
  });

  it('lets managers see every project, members public and assigned ones, guests assigned ones', () => {
    const of = (role: MembershipWithWorkspace['role']) => projectViewer({ workspaceId: 'w', userId: 'u', role });
    expect(of('manager')).toMatchObject({ seesAll: true });
    expect(of('member')).toMatchObject({ seesAll: false, seesPublic: true });
    expect(of('guest')).toMatchObject({ seesAll: false, seesPublic: false });
  });

  it('lets a member edit a project only with a grant', () => {
    expect(mayEditProject('member', { granted: false })).toBe(false);
    expect(mayEditProject('member', { granted: true })).toBe(true);
    expect(mayEditProject('admin', { granted: false })).toBe(true);
  });
});
