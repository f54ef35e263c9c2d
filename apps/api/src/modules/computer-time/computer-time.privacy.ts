import {
  type ActivityPrivacy,
  type ActivityPrivacyOverride,
  type ComputerTimeGroupSettingsBody,
  type ComputerTimeGroupSettingsView,
  computerTimeGroupSettingsBody,
  personalPrivacy,
} from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { assertCan } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit, changesOf } from '../../platform/audit.js';
import { notFound } from '../../platform/errors.js';
import { privacyRepository as repo } from './computer-time.privacy.repository.js';

/** Each person's privacy: the workspace's settings as their groups change them. */
export interface Privacy {
  of: (userId: string) => ActivityPrivacy;
  /** No group chose anything: everyone has the workspace's. */
  uniform: boolean;
}

/**
 * The privacy of the workspace's people (all of them, or these): the workspace's settings, changed
 * by the groups they are in and the groups around those (a choice of "Engineering" covers
 * "Engineering / Frontend"). One read of the groups' choices, and none of their members when no
 * group chose anything.
 */
export async function privacyOf(
  db: Db,
  workspaceId: string,
  workspace: ActivityPrivacy,
  userIds: readonly string[] | null,
): Promise<Privacy> {
  const choices = await repo.groupSettings(db, workspaceId);
  if (choices.length === 0 || userIds?.length === 0) return { of: () => workspace, uniform: choices.length === 0 };
  const children = new Map<string, string[]>();
  for (const group of await repo.groupTree(db, workspaceId)) {
    if (group.parent_id) children.set(group.parent_id, [...(children.get(group.parent_id) ?? []), group.id]);
  }
  // Which choices reach a group's members: its own and those of the groups it sits in.
  const reaching = new Map<string, ActivityPrivacyOverride[]>();
  for (const choice of choices) {
    const override = { keep: choice.keep, managersSeeActivity: choice.managers_see_activity };
    const seen = new Set<string>();
    for (const queue = [choice.group_id]; queue.length > 0; ) {
      const id = queue.pop() as string;
      if (seen.has(id)) continue;
      seen.add(id);
      reaching.set(id, [...(reaching.get(id) ?? []), override]);
      queue.push(...(children.get(id) ?? []));
    }
  }
  const byPerson = new Map<string, ActivityPrivacyOverride[]>();
  for (const member of await repo.membersOf(db, workspaceId, [...reaching.keys()], userIds)) {
    byPerson.set(member.user_id, [...(byPerson.get(member.user_id) ?? []), ...(reaching.get(member.group_id) ?? [])]);
  }
  return { of: (userId) => personalPrivacy(workspace, byPerson.get(userId) ?? []), uniform: false };
}

/** A group's own computer time settings: listed for everyone who reads the settings, set by `computer_time:settings`. */
export function createGroupSettings(deps: { db: Db }) {
  const { db } = deps;
  const view = (row: {
    group_id: string;
    name: string;
    keep: ComputerTimeGroupSettingsView['keep'];
    managers_see_activity: boolean | null;
  }): ComputerTimeGroupSettingsView => ({
    groupId: row.group_id,
    groupName: row.name,
    keep: row.keep,
    managersSeeActivity: row.managers_see_activity,
  });

  return {
    async groupSettings(actor: Actor): Promise<{ items: ComputerTimeGroupSettingsView[] }> {
      return { items: (await repo.groupSettings(db, actor.membership.workspace.id)).map(view) };
    },

    /** Sets a group's choices; both null returns the group to the workspace's settings. Audited. */
    async saveGroupSettings(
      actor: Actor,
      groupId: string,
      input: ComputerTimeGroupSettingsBody,
    ): Promise<ComputerTimeGroupSettingsView> {
      assertCan(actor, 'computer_time:settings');
      const body = computerTimeGroupSettingsBody.parse(input);
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) => {
        const name = await repo.groupName(tx, workspaceId, groupId);
        if (name === undefined) throw notFound('Group not found.');
        const row = await repo.groupSetting(tx, workspaceId, groupId);
        await repo.saveGroupSetting(tx, workspaceId, groupId, body);
        const changes = changesOf(
          { keep: row?.keep ?? null, managersSeeActivity: row?.managers_see_activity ?? null },
          body,
        );
        if (Object.keys(changes).length > 0) {
          await audit(tx, {
            action: 'computer_time_settings.updated',
            actorUserId: actor.userId,
            workspaceId,
            subjectId: groupId,
            detail: { group: name, changes },
          });
        }
        return { groupId, groupName: name, ...body };
      });
    },
  };
}
