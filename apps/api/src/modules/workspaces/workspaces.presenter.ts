import { effectivePlan, trialDaysLeft } from '@sundial/core';
import { z } from 'zod';
import type { MembershipWithWorkspace } from './workspaces.repository.js';

export const workspaceView = z.object({
  id: z.uuid(),
  name: z.string(),
  role: z.enum(['owner', 'admin', 'manager', 'member', 'guest']),
  plan: z.enum(['free', 'basic', 'pro', 'enterprise']),
  purchasedPlan: z.enum(['free', 'basic', 'pro', 'enterprise']),
  trialEndsAt: z.string().nullable(),
  trialDaysLeft: z.number().int(),
  createdAt: z.string(),
});
export type WorkspaceView = z.infer<typeof workspaceView>;

export function presentWorkspace({ workspace, role }: MembershipWithWorkspace, now = new Date()): WorkspaceView {
  return {
    id: workspace.id,
    name: workspace.name,
    role,
    plan: effectivePlan(workspace.plan, workspace.trial_ends_at, now),
    purchasedPlan: workspace.plan,
    trialEndsAt: workspace.trial_ends_at ? new Date(workspace.trial_ends_at).toISOString() : null,
    trialDaysLeft: trialDaysLeft(workspace.trial_ends_at, now),
    createdAt: new Date(workspace.created_at).toISOString(),
  };
}
