import type { ProfileUpdateBody } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import type { User } from '../../db/tables.js';
import { type ProfileChanges, usersService } from '../users/users.service.js';
import type { WorkspacesService } from '../workspaces/workspaces.service.js';

export function createProfileService({ db, workspaces }: { db: Db; workspaces: WorkspacesService }) {
  return {
    /** Saves profile settings; switching the current workspace needs a membership of it (404 otherwise). */
    async update(user: User, changes: ProfileUpdateBody): Promise<User> {
      if (changes.currentWorkspaceId) await workspaces.getMembership(changes.currentWorkspaceId, user.id);
      const update: ProfileChanges = {
        name: changes.name,
        time_zone: changes.timeZone,
        week_start: changes.weekStart,
        date_format: changes.dateFormat,
        time_format: changes.timeFormat,
        duration_format: changes.durationFormat,
        current_workspace_id: changes.currentWorkspaceId,
      };
      const defined = Object.fromEntries(Object.entries(update).filter(([, v]) => v !== undefined)) as ProfileChanges;
      if (Object.keys(defined).length === 0) return user;
      return usersService.updateProfile(db, user.id, defined);
    },
  };
}
