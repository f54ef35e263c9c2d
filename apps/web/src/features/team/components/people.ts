import { can, type Role } from '@sundial/core';
import type { GroupView, MemberView } from '../api';

export const displayName = (m: MemberView) => m.name || m.email;

/** Whether the member's name, e-mail or external id contains the search (case-insensitive). */
export function matches(member: MemberView, search: string): boolean {
  const q = search.trim().toLowerCase();
  if (!q) return true;
  return [member.name, member.email, member.externalId ?? ''].some((v) => v.toLowerCase().includes(q));
}

/** Groups whose people the viewer may change: all for owners and admins; a manager's own groups and below. */
export function managedGroupIds(groups: GroupView[], userId: string, role: Role): Set<string> {
  if (can(role, 'groups:manage')) return new Set(groups.map((g) => g.id));
  if (!can(role, 'groups:manage_own')) return new Set();
  return withSubgroups(
    groups,
    groups.filter((g) => g.memberIds.includes(userId)).map((g) => g.id),
  );
}

/** The ids of the groups and of every group below them. */
export function withSubgroups(groups: GroupView[], roots: string[]): Set<string> {
  const ids = new Set(roots);
  let grew = true;
  while (grew) {
    grew = false;
    for (const g of groups) {
      if (g.parentId && ids.has(g.parentId) && !ids.has(g.id)) {
        ids.add(g.id);
        grew = true;
      }
    }
  }
  return ids;
}

/** A copy of the set with the id added, or removed when it was there. */
export function toggled(set: Set<string>, id: string): Set<string> {
  const next = new Set(set);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}
