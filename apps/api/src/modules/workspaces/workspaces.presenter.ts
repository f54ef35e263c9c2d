import { effectivePlan, trialDaysLeft, type WorkspaceDetailView, type WorkspaceView } from '@sundial/core';
import type { MembershipWithWorkspace } from '../../platform/actor.js';

export { workspaceDetailView, workspaceView } from '@sundial/core';

/** A workspace as its member sees it; `withLogo` holds the ids of workspaces that have a logo. */
export function presentWorkspace(
  { workspace, role, assignedRole, billing, features, permissions, customRole }: MembershipWithWorkspace,
  withLogo: ReadonlySet<string>,
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
    hasLogo: withLogo.has(workspace.id),
    createdAt: new Date(workspace.created_at).toISOString(),
  };
}

/** One workspace with its settings: GET and PATCH /workspaces/:id. */
export function presentWorkspaceDetail(
  membership: MembershipWithWorkspace,
  allowedEmailDomains: string[],
  withLogo: ReadonlySet<string>,
): WorkspaceDetailView {
  return { ...presentWorkspace(membership, withLogo), allowedEmailDomains };
}
