import type { Db } from '../../db/connection.js';
import { allows, assertCan, othersTimeScope } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { hashSecret } from '../../platform/ids.js';
import { timeEntriesRepository as repo } from './time-entries.repository.js';
import { targetUser } from './time-entries.shared.js';

/** Whose time the actor may open and follow live: the "Timesheet of" picker and live streams. */
export function createPeople(db: Db) {
  return {
    /**
     * Who may follow whose changes live: one's own, or others' with time:view_others (a manager:
     * their people only). `userId` null follows everyone in `only` (every member when it is null).
     */
    async streamTarget(
      actor: Actor,
      userId: string | undefined,
    ): Promise<{ userId: string | null; only: Set<string> | null }> {
      if (userId === 'all') {
        assertCan(actor, 'time:view_others');
        const scope = await othersTimeScope(db, actor);
        return { userId: null, only: scope ? new Set([actor.userId, ...scope]) : null };
      }
      return { userId: await targetUser(db, actor, userId, 'view'), only: null };
    },

    /** The people whose timesheet the actor may open (the "Timesheet of" picker): self first. */
    async people(actor: Actor): Promise<{ userId: string; name: string; email: string }[]> {
      assertCan(actor, 'time:track');
      const workspaceId = actor.membership.workspace.id;
      if (!allows(actor.membership, 'time:view_others')) {
        return repo.activeMembers(db, workspaceId, [actor.userId]);
      }
      const scope = await othersTimeScope(db, actor);
      const people = await repo.activeMembers(db, workspaceId, scope ? [actor.userId, ...scope] : undefined);
      return [...people.filter((p) => p.userId === actor.userId), ...people.filter((p) => p.userId !== actor.userId)];
    },

    /** Whether the session that opened a live stream still lets its user in (not ended, expired or disabled). */
    streamAllowed(input: { sessionSecret: string; workspaceId: string; userId: string }): Promise<boolean> {
      return repo.sessionStillValid(db, { ...input, sessionHash: hashSecret(input.sessionSecret), now: new Date() });
    },
  };
}
