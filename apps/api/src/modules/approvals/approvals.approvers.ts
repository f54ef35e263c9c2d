import type { ApprovalSettings, Feature } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { approvalScope, memberAccess } from '../../platform/access.js';
import type { Member } from './approvals.repository.js';

/** An approver among the members, and whose periods they approve. */
export interface Approver {
  person: Member;
  approves: (userId: string) => boolean;
}

/**
 * The approvers among `members` under the workspace's rule, as access.ts decides it for each of
 * them with their role and permissions in force (custom roles and the plan's features included):
 * owners and admins approve everyone's periods; managers their own people's (the groups they
 * manage), unless the rule is admins only. The reminders and the notice of a submission both ask this.
 */
export async function approversAmong(
  db: Db,
  workspaceId: string,
  settings: ApprovalSettings,
  members: readonly Member[],
  features: readonly Feature[],
): Promise<Approver[]> {
  const approvers: Approver[] = [];
  for (const person of members) {
    const scope = await approvalScope(db, memberAccess(workspaceId, person, features), settings.approverRule);
    if (scope.userIds === null || scope.userIds.size > 0) approvers.push({ person, approves: scope.approves });
  }
  return approvers;
}
