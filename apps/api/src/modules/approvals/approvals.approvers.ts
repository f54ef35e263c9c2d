import type { ApprovalSettings } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { accessRepository } from '../../platform/access.repository.js';
import type { PeriodOwner } from './approvals.repository.js';

/** An approver among the members, and whose periods they approve. */
export interface Approver {
  person: PeriodOwner;
  approves: (userId: string) => boolean;
}

/**
 * The approvers among `members` under the workspace's rule: owners and admins approve everyone's
 * periods; managers their own people's (the groups they manage), unless the rule is admins only.
 * The reminders and the notice of a submission both ask this.
 */
export async function approversAmong(
  db: Db,
  workspaceId: string,
  settings: ApprovalSettings,
  members: readonly PeriodOwner[],
): Promise<Approver[]> {
  const approvers: Approver[] = [];
  for (const person of members) {
    if (person.role === 'owner' || person.role === 'admin') approvers.push({ person, approves: () => true });
    else if (person.role === 'manager' && settings.approverRule === 'managers_and_admins') {
      const people = await accessRepository.managedUserIds(db, workspaceId, person.user_id);
      approvers.push({ person, approves: (userId) => userId !== person.user_id && people.has(userId) });
    }
  }
  return approvers;
}
