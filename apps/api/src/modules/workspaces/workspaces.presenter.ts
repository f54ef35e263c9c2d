import { effectivePlan, trialDaysLeft, type WorkspaceDetailView, type WorkspaceView } from '@sundial/core';
import type { MembershipWithWorkspace } from '../../platform/actor.js';

export { workspaceDetailView, workspaceView } from '@sundial/core';

export function presentWorkspace(
  { workspace, role, assignedRole, billing, features, permissions, customRole }: MembershipWithWorkspace,
  now = new Date(),
): WorkspaceView {
  return {
    id: workspace.id,
    name: workspace.name,
    role,
    assignedRole,
    plan: effectivePlan(workspace.plan, workspace.trial_ends_at, now),
    purchasedPlan: workspace.plan,
    trialEndsAt: workspace.trial_ends_at ? new Date(workspace.trial_ends_at).toISOString() : null,
    // With billing off there is no trial to count down (and no banner).
    trialDaysLeft: billing ? trialDaysLeft(workspace.trial_ends_at, now) : 0,
    billing,
    features: [...features],
    permissions: [...permissions],
    customRole,
    createdAt: new Date(workspace.created_at).toISOString(),
  };
}

/** One workspace with its settings: GET and PATCH /workspaces/:id. */
export function presentWorkspaceDetail(
  membership: MembershipWithWorkspace,
  allowedEmailDomains: string[],
): WorkspaceDetailView {
  return { ...presentWorkspace(membership), allowedEmailDomains };
}
