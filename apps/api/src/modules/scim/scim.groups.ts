import type { Db } from '../../db/connection.js';
import type { ConstraintTable } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { groupRecords } from '../groups/groups.service.js';
import { type Clause, memberIds, patchOperations, SCHEMA, ScimError } from './scim.protocol.js';
import { scimRepository as repo } from './scim.repository.js';
import { list, recordScim as record, type ScimCaller, unique } from './scim.shared.js';

const GROUP_CONSTRAINTS: ConstraintTable = {
  groups_sibling_name_key: {
    code: 'uniqueness',
    message: 'A group with this displayName already exists.',
    status: 409,
  },
};

/**
 * SCIM's Groups: Sundial's groups, made at the top level, written through the groups service;
 * members are named by their SCIM ids.
 */
export function createScimGroups(deps: {
  db: Db;
  /** The SCIM base URL, for each resource's location. */
  base: string;
}) {
  const { db, base } = deps;
  const transaction = <T>(run: (tx: Db) => Promise<T>) => db.transaction().execute(run);

  async function presentGroups(
    tx: Db,
    workspaceId: string,
    rows: { id: string; name: string; created_at: Date; updated_at: Date }[],
  ) {
    const members = await repo.groupMembers(
      tx,
      workspaceId,
      rows.map((r) => r.id),
    );
    return rows.map((row) => ({
      schemas: [SCHEMA.group],
      id: row.id,
      displayName: row.name,
      members: members.filter((m) => m.group_id === row.id).map((m) => ({ value: m.user_id, display: m.email })),
      meta: {
        resourceType: 'Group',
        created: new Date(row.created_at).toISOString(),
        lastModified: new Date(row.updated_at).toISOString(),
        location: `${base}/Groups/${row.id}`,
      },
    }));
  }

  async function loadGroup(tx: Db, caller: ScimCaller, id: string) {
    const row = /^[0-9a-f-]{36}$/i.test(id) ? await repo.findGroup(tx, caller.workspaceId, id) : undefined;
    if (!row) throw new ScimError(404, 'Group not found.');
    return row;
  }

  /** Puts the members named by SCIM ids in the group; ids that are not members are left out. */
  const addGroupMembers = async (tx: Db, caller: ScimCaller, groupId: string, ids: string[]) =>
    groupRecords.addMembers(tx, {
      workspaceId: caller.workspaceId,
      groupId,
      userIds: await repo.memberUserIds(tx, caller.workspaceId, ids),
    });

  const removeGroupMembers = async (tx: Db, caller: ScimCaller, groupId: string, ids: string[] | 'all') =>
    groupRecords.removeMembers(tx, {
      workspaceId: caller.workspaceId,
      groupId,
      userIds: ids === 'all' ? 'all' : await repo.memberUserIds(tx, caller.workspaceId, ids),
    });

  async function getGroup(caller: ScimCaller, id: string) {
    const row = await loadGroup(db, caller, id);
    const [group] = await presentGroups(db, caller.workspaceId, [row]);
    return group;
  }

  return {
    async listGroups(
      caller: ScimCaller,
      clauses: Clause[],
      page: { offset: number; limit: number; startIndex: number },
    ) {
      let displayName: string | undefined;
      for (const clause of clauses) {
        if (clause.attribute !== 'displayname') {
          throw new ScimError(400, `Filtering on ${clause.attribute} is not supported.`, 'invalidFilter');
        }
        displayName = clause.value;
      }
      const found = await repo.listGroups(db, caller.workspaceId, displayName, page);
      return list(await presentGroups(db, caller.workspaceId, found.rows), found.total, page.startIndex);
    },

    getGroup,

    async createGroup(caller: ScimCaller, body: Record<string, unknown>) {
      const name = typeof body.displayName === 'string' ? body.displayName.trim().slice(0, 100) : '';
      if (!name) throw new ScimError(400, 'displayName is required.', 'invalidValue');
      const id = newId();
      await transaction(async (tx) => {
        if (await repo.groupByName(tx, caller.workspaceId, name)) {
          throw new ScimError(409, 'A group with this displayName already exists.', 'uniqueness');
        }
        await unique(GROUP_CONSTRAINTS, () => groupRecords.create(tx, { id, workspaceId: caller.workspaceId, name }));
        await addGroupMembers(tx, caller, id, memberIds(body.members));
        await record(tx, caller, 'scim.group_created', id, { name });
      });
      return getGroup(caller, id);
    },

    async replaceGroup(caller: ScimCaller, id: string, body: Record<string, unknown>) {
      await transaction(async (tx) => {
        const group = await loadGroup(tx, caller, id);
        const name = typeof body.displayName === 'string' ? body.displayName.trim().slice(0, 100) : group.name;
        if (name !== group.name)
          await unique(GROUP_CONSTRAINTS, () => groupRecords.rename(tx, caller.workspaceId, id, name));
        await removeGroupMembers(tx, caller, id, 'all');
        await addGroupMembers(tx, caller, id, memberIds(body.members));
        await record(tx, caller, 'scim.group_updated', id, { name, members: memberIds(body.members) });
      });
      return getGroup(caller, id);
    },

    /** Renames, and adds or removes members (`members[value eq "id"]` paths too), as Okta and Entra send. */
    async patchGroup(caller: ScimCaller, id: string, body: unknown) {
      const operations = patchOperations(body);
      await transaction(async (tx) => {
        const group = await loadGroup(tx, caller, id);
        for (const { op, path, value } of operations) {
          const named = (
            path === 'displayname' ? value : (value as { displayName?: unknown } | null)?.displayName
          ) as unknown;
          if ((path === 'displayname' || path === '') && typeof named === 'string' && op !== 'remove') {
            const name = named.trim().slice(0, 100);
            if (name && name !== group.name)
              await unique(GROUP_CONSTRAINTS, () => groupRecords.rename(tx, caller.workspaceId, id, name));
          }
          const one = /^members\[value eq "([^"]+)"\]$/.exec(path);
          if (path === 'members' || path === '' || one) {
            const ids = one?.[1]
              ? [one[1]]
              : memberIds(path === '' ? (value as { members?: unknown } | null)?.members : value);
            if (op === 'remove')
              await removeGroupMembers(tx, caller, id, path === 'members' && value === undefined ? 'all' : ids);
            else {
              if (op === 'replace') await removeGroupMembers(tx, caller, id, 'all');
              await addGroupMembers(tx, caller, id, ids);
            }
          }
        }
        await record(tx, caller, 'scim.group_updated', id, { operations: operations.map((o) => `${o.op} ${o.path}`) });
      });
      return getGroup(caller, id);
    },

    async deleteGroup(caller: ScimCaller, id: string) {
      await transaction(async (tx) => {
        const group = await loadGroup(tx, caller, id);
        await groupRecords.deleteWithChildren(tx, caller.workspaceId, id);
        await record(tx, caller, 'scim.group_deleted', id, { name: group.name });
      });
    },
  };
}
