import { describe, expect, it } from 'vitest';
import { assertCan, assertFeature, entitledMembership, mayEditProject, projectViewer } from './access.js';
import type { MembershipWithWorkspace } from './actor.js';
import { AppError } from './errors.js';

const DAY = 86_400_000;
const now = new Date('2026-03-10T12:00:00Z');

function actorOn(
  plan: 'free' | 'basic' | 'pro',
  trialEndsAt: Date | null,
  role: MembershipWithWorkspace['role'] = 'owner',
  billing = true,
) {
  const workspace = { plan, trial_ends_at: trialEndsAt } as MembershipWithWorkspace['workspace'];
  return { membership: entitledMembership({ workspace, role, status: 'active' }, { billing }, now) };
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
    expect(thrown(() => assertFeature(actorOn('free', new Date(now.getTime() + DAY)), 'invoicing'))).toBeUndefined();
  });

  it('answers 403 plan_limit_reached when the plan lacks the feature', () => {
    const error = thrown(() => assertFeature(actorOn('free', new Date(now.getTime() - DAY)), 'invoicing'));
    expect(error).toMatchObject({ code: 'plan_limit_reached', status: 403 });
    expect(error?.message).toBe('Invoicing needs the Pro plan. Upgrade to use it.');
  });

  it('lets a plan use its features and no more', () => {
    expect(thrown(() => assertFeature(actorOn('basic', null), 'export'))).toBeUndefined();
    expect(thrown(() => assertFeature(actorOn('basic', null), 'approvals'))).toMatchObject({
      code: 'plan_limit_reached',
    });
  });

  it('locks nothing when billing is off', () => {
    const ended = new Date(now.getTime() - DAY);
    expect(thrown(() => assertFeature(actorOn('free', ended, 'owner', false), 'billing_rates'))).toBeUndefined();
  });
});

describe('entitledMembership', () => {
  const ended = new Date(now.getTime() - DAY);

  it('makes a Manager of a Free workspace act as a Member, keeping the stored role', () => {
    const { membership } = actorOn('free', ended, 'manager');
    expect(membership).toMatchObject({ role: 'member', assignedRole: 'manager' });
  });

  it('keeps the Manager role on trial, on Basic and with billing off', () => {
    expect(actorOn('free', new Date(now.getTime() + DAY), 'manager').membership.role).toBe('manager');
    expect(actorOn('basic', null, 'manager').membership.role).toBe('manager');
    expect(actorOn('free', ended, 'manager', false).membership.role).toBe('manager');
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
