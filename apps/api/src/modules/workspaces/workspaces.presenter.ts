import { effectivePlan, trialDaysLeft, type WorkspaceView } from '@sundial/core';
import type { MembershipWithWorkspace } from './workspaces.repository.js';

export { workspaceView } from '@sundial/core';

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
