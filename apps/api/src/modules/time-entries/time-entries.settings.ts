import type { TimeSettings, updateTimeSettingsBody } from '@sundial/core';
import type { z } from 'zod';
import type { Db } from '../../db/connection.js';
import { assertCan } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import { timeEntriesRepository as repo } from './time-entries.repository.js';
import { settingsOf } from './time-entries.shared.js';

/** The workspace's time settings: required fields, rounding, the longest entry, how far ahead. */
export function createTimeSettings(db: Db) {
  return {
    /**
     * A new workspace's time settings, inside the caller's transaction: the defaults, with the
     * owner's time zone as the report zone.
     */
    async seedSettings(tx: Db, workspaceId: string, ownerUserId: string): Promise<void> {
      await repo.seedSettings(tx, workspaceId, ownerUserId);
    },

    /** "Tags required" alone, inside the caller's transaction (the Tags screen saves it; it audits). */
    async setRequireTag(tx: Db, workspaceId: string, value: boolean): Promise<void> {
      await repo.upsertSettings(tx, workspaceId, { require_tag: value });
    },

    /**
     * Marks the report rollups ready if no change of the zone or rounding came since `version` (one
     * that did marked them stale again, and the next rebuild runs): answers whether it did.
     */
    markRollupsReady(workspaceId: string, version: number): Promise<boolean> {
      return repo.markRollupsReady(db, workspaceId, version);
    },

    async getSettings(actor: Actor): Promise<TimeSettings> {
      assertCan(actor, 'workspace:view');
      return settingsOf(db, actor.membership.workspace.id);
    },

    async updateSettings(actor: Actor, input: z.infer<typeof updateTimeSettingsBody>): Promise<TimeSettings> {
      assertCan(actor, 'time:settings');
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) => {
        await repo.upsertSettings(tx, workspaceId, {
          require_project: input.requireProject,
          require_task: input.requireTask,
          require_tag: input.requireTag,
          require_note: input.requireNote,
          rounding_mode: input.roundingMode,
          rounding_minutes: input.roundingMinutes,
          max_entry_minutes: input.maxEntryMinutes,
          future_limit_minutes: input.futureLimitMinutes,
          // A new zone or rounding marks the report rollups stale (a trigger); a job rebuilds them.
          report_time_zone: input.reportTimeZone,
        });
        await audit(tx, { action: 'time_settings.updated', actorUserId: actor.userId, workspaceId, detail: input });
        return settingsOf(tx, workspaceId);
      });
    },
  };
}
