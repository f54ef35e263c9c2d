import { describe, expect, it } from 'vitest';
import {
  effectiveRole,
  FEATURES,
  featureLockedMessage,
  featurePlanName,
  featuresOf,
  planHasFeature,
  seatLimit,
  workspaceFeatures,
  workspaceHasFeature,
} from './entitlements.js';

const DAY = 86_400_000;
const now = new Date('2026-03-10T12:00:00Z');

describe('entitlements', () => {
  it('gives Free none of the paid features', () => {
    expect(featuresOf('free')).toEqual([]);
  });

  it('gives Basic its own list and nothing of Pro', () => {
    expect(featuresOf('basic')).toEqual(['export', 'management_roles', 'budgets']);
    expect(planHasFeature('basic', 'invoicing')).toBe(false);
  });

  it('gives Pro everything of Basic and its own list', () => {
    expect(featuresOf('pro')).toEqual([...FEATURES]);
    expect(planHasFeature('pro', 'budgets')).toBe(true);
    expect(planHasFeature('pro', 'advanced_tags')).toBe(true);
  });

  it('gives Enterprise every feature', () => {
    for (const feature of FEATURES) expect(planHasFeature('enterprise', feature)).toBe(true);
  });

  it('locks nothing while the trial runs, whatever the plan', () => {
    const onTrial = { plan: 'free' as const, trial_ends_at: new Date(now.getTime() + 3 * DAY) };
    for (const feature of FEATURES) expect(workspaceHasFeature(onTrial, feature, now)).toBe(true);
  });

  it('goes by the plan once the trial has ended', () => {
    const ended = new Date(now.getTime() - DAY);
    expect(workspaceHasFeature({ plan: 'free', trial_ends_at: ended }, 'export', now)).toBe(false);
    expect(workspaceHasFeature({ plan: 'basic', trial_ends_at: ended }, 'export', now)).toBe(true);
    expect(workspaceHasFeature({ plan: 'basic', trial_ends_at: null }, 'approvals', now)).toBe(false);
    expect(workspaceHasFeature({ plan: 'pro', trial_ends_at: null }, 'approvals', now)).toBe(true);
  });

  it('names the plan that unlocks a feature', () => {
    expect(featureLockedMessage('invoicing')).toBe('Invoicing needs the Pro plan. Upgrade to use it.');
    expect(featureLockedMessage('budgets')).toBe('Budgeting and alerts needs the Basic plan. Upgrade to use it.');
  });

  it('limits seats on paid plans only', () => {
    expect(seatLimit({ plan: 'free', licenses: 0 })).toBeNull();
    expect(seatLimit({ plan: 'basic', licenses: 5 })).toBe(5);
  });

  it('lists what a workspace may use now, and everything when billing is off', () => {
    const ended = new Date(now.getTime() - DAY);
    expect(workspaceFeatures({ plan: 'free', trial_ends_at: ended }, now)).toEqual([]);
    expect(workspaceFeatures({ plan: 'basic', trial_ends_at: ended }, now)).toEqual(featuresOf('basic'));
    expect(workspaceFeatures({ plan: 'free', trial_ends_at: ended }, now, { billing: false })).toEqual([...FEATURES]);
    expect(workspaceHasFeature({ plan: 'free', trial_ends_at: null }, 'sso', now, { billing: false })).toBe(true);
  });

  it('lists exactly the features workspaceHasFeature grants, whatever the plan, trial and billing switch', () => {
    const trials = [null, new Date(now.getTime() - DAY), now, new Date(now.getTime() + 1), '2026-03-20T00:00:00Z'];
    for (const plan of ['free', 'basic', 'pro', 'enterprise'] as const) {
      for (const trial_ends_at of trials) {
        for (const billing of [true, false]) {
          const workspace = { plan, trial_ends_at };
          expect(workspaceFeatures(workspace, now, { billing })).toEqual(
            FEATURES.filter((feature) => workspaceHasFeature(workspace, feature, now, { billing })),
          );
        }
      }
    }
  });

  it('has no seat limit when billing is off', () => {
    expect(seatLimit({ plan: 'basic', licenses: 5 }, { billing: false })).toBeNull();
  });

  it('makes a Manager act as a Member without management roles, and no one else', () => {
    expect(effectiveRole('manager', [])).toBe('member');
    expect(effectiveRole('manager', ['management_roles'])).toBe('manager');
    for (const role of ['owner', 'admin', 'member', 'guest'] as const) expect(effectiveRole(role, [])).toBe(role);
  });

  it('names the cheapest plan with a feature', () => {
    expect(featurePlanName('export')).toBe('Basic');
    expect(featurePlanName('billing_rates')).toBe('Pro');
  });
});
