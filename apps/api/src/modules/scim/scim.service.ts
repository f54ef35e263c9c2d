import { type BillingMode, emailSchema } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { assertCan, assertFeature, assertSeatsAfterChange } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { type AuditAction, audit } from '../../platform/audit.js';
import { AppError, type ConstraintTable, mapConstraints } from '../../platform/errors.js';
import { hashSecret, newId, newSecret } from '../../platform/ids.js';
import { hashPassword } from '../../platform/passwords.js';
import type { SessionStore } from '../../platform/sessions.js';
import { emailDomainRefusal } from '../workspaces/workspaces.service.js';
import {
  asBoolean,
  type Clause,
  memberIds,
  type PatchOperation,
  patchOperations,
  SCHEMA,
  ScimError,
} from './scim.protocol.js';
import { scimRepository as repo, type ScimMemberRow } from './scim.repository.js';

/** The workspace a SCIM request acts in, as its bearer token named it. */
export interface ScimCaller {
  workspaceId: string;
  tokenId: string;
}

/** Tokens start with this, so a leaked one is recognisable (and scanners can find it). */
const TOKEN_PREFIX = 'sdscim_';

const USER_CONSTRAINTS: ConstraintTable = {
  memberships_external_id_key: {
    code: 'uniqueness',
    message: 'Another user already has this externalId.',
    status: 409,
  },
  users_email_key: { code: 'uniqueness', message: 'Another account already has this userName.', status: 409 },
};
const GROUP_CONSTRAINTS: ConstraintTable = {
  groups_sibling_name_key: {
    code: 'uniqueness',
    message: 'A group with this displayName already exists.',
    status: 409,
  },
};

/** A 409 from the database's unique constraints, as SCIM's uniqueness error. */
async function unique<T>(table: ConstraintTable, run: () => Promise<T>): Promise<T> {
  try {
    return await mapConstraints(table, run);
  } catch (error) {
    if (error instanceof AppError && error.status === 409) throw new ScimError(409, error.message, 'uniqueness');
    throw error;
  }
}

/** What a User resource sets: its parts Sundial keeps. */
interface UserState {
  email: string;
  givenName: string;
  familyName: string;
  externalId: string | null;
  active: boolean;
}

const splitName = (name: string) => {
  const [given = '', ...rest] = name.trim().split(/\s+/);
  return { givenName: given, familyName: rest.join(' ') };
};
const joinName = (s: Pick<UserState, 'givenName' | 'familyName'>) => `${s.givenName} ${s.familyName}`.trim();

function checkEmail(value: unknown): string {
  const parsed = emailSchema.safeParse(value);
  if (!parsed.success || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(parsed.data)) {
    throw new ScimError(400, 'userName must be an e-mail address.', 'invalidValue');
  }
  return parsed.data.toLowerCase();
}

const primaryEmail = (emails: unknown): string | undefined => {
  if (!Array.isArray(emails)) return undefined;
  const list = emails as { value?: unknown; primary?: unknown; type?: unknown }[];
  const pick =
    list.find((e) => e.primary === true || e.primary === 'true') ?? list.find((e) => e.type === 'work') ?? list[0];
  return typeof pick?.value === 'string' ? pick.value : undefined;
};

/** The state a full User resource (POST, PUT) describes, over `base`. */
function stateOf(body: Record<string, unknown>, base?: UserState): UserState {
  const name = (body.name ?? {}) as Record<string, unknown>;
  const userName = body.userName ?? primaryEmail(body.emails);
  if (userName === undefined && !base) throw new ScimError(400, 'userName is required.', 'invalidValue');
  const formatted = typeof name.formatted === 'string' ? splitName(name.formatted) : undefined;
  const display = typeof body.displayName === 'string' ? splitName(body.displayName) : undefined;
  return {
    email: userName === undefined ? (base?.email ?? '') : checkEmail(userName),
    givenName:
      typeof name.givenName === 'string'
        ? name.givenName
        : ((formatted ?? display)?.givenName ?? base?.givenName ?? ''),
    familyName:
      typeof name.familyName === 'string'
        ? name.familyName
        : ((formatted ?? display)?.familyName ?? base?.familyName ?? ''),
    externalId: typeof body.externalId === 'string' && body.externalId !== '' ? body.externalId.slice(0, 100) : null,
    active: body.active === undefined ? true : asBoolean(body.active),
  };
}

/** Applies PATCH operations to a user's state: what Okta and Entra send; other attributes are ignored. */
function patched(state: UserState, operations: PatchOperation[]): UserState {
  const next = { ...state };
  const set = (path: string, value: unknown, op: PatchOperation['op']) => {
    const text = op === 'remove' ? null : typeof value === 'string' ? value : null;
    switch (path) {
      case 'active':
        next.active = op === 'remove' ? false : asBoolean(value);
        return;
      case 'username':
        next.email = checkEmail(value);
        return;
      case 'externalid':
        next.externalId = text ? text.slice(0, 100) : null;
        return;
      case 'name.givenname':
        next.givenName = text ?? '';
        return;
      case 'name.familyname':
        next.familyName = text ?? '';
        return;
      case 'name.formatted':
      case 'displayname':
        if (text !== null) Object.assign(next, splitName(text));
        return;
      case 'name':
        if (value && typeof value === 'object') {
          for (const [key, v] of Object.entries(value)) set(`name.${key.toLowerCase()}`, v, op);
        }
        return;
      case 'emails':
        if (op !== 'remove' && primaryEmail(value)) next.email = checkEmail(primaryEmail(value));
        return;
      default:
        // emails[type eq "work"].value, emails[primary eq true].value (Entra)
        if (/^emails\[.*\]\.value$/.test(path) && op !== 'remove') next.email = checkEmail(value);
    }
  };
  for (const operation of operations) {
    if (operation.path) set(operation.path, operation.value, operation.op);
    else if (operation.value && typeof operation.value === 'object') {
      for (const [key, v] of Object.entries(operation.value)) set(key.toLowerCase(), v, operation.op);
    }
  }
  return next;
}

const stateOfRow = (row: ScimMemberRow): UserState => ({
  email: row.email,
  ...splitName(row.name),
  externalId: row.external_id,
  active: row.status === 'active',
});

/**
 * SCIM provisioning (Pro, with SSO): an identity provider creates, changes, deactivates and
 * removes the workspace's members, and keeps its groups, through one bearer token per workspace.
 * Deactivating disables the member and ends their sessions; deleting removes them (their time
 * stays attributed). The owner is not a SCIM user. Every change is audited, by the token.
 */
export function createScimService(deps: { db: Db; sessions: SessionStore; billing: BillingMode; publicUrl: string }) {
  const { db, sessions, billing } = deps;
  const base = `${deps.publicUrl.replace(/\/$/, '')}/scim/v2`;

  const presentUser = (row: ScimMemberRow) => {
    const { givenName, familyName } = splitName(row.name);
    return {
      schemas: [SCHEMA.user],
      id: row.user_id,
      ...(row.external_id ? { externalId: row.external_id } : {}),
      userName: row.email,
      name: { formatted: row.name, givenName, familyName },
      displayName: row.name,
      emails: [{ value: row.email, type: 'work', primary: true }],
      active: row.status === 'active',
      meta: {
        resourceType: 'User',
        created: new Date(row.created_at).toISOString(),
        location: `${base}/Users/${row.user_id}`,
      },
    };
  };

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

  const record = (tx: Db, caller: ScimCaller, action: AuditAction, subjectId: string, detail: object = {}) =>
    audit(tx, {
      action,
      actorUserId: null,
      workspaceId: caller.workspaceId,
      subjectId,
      detail: { via: 'scim', tokenId: caller.tokenId, ...detail },
    });

  async function loadMember(tx: Db, caller: ScimCaller, userId: string): Promise<ScimMemberRow> {
    const row = /^[0-9a-f-]{36}$/i.test(userId) ? await repo.findMember(tx, caller.workspaceId, userId) : undefined;
    if (!row) throw new ScimError(404, 'User not found.');
    return row;
  }

  async function loadGroup(tx: Db, caller: ScimCaller, id: string) {
    const row = /^[0-9a-f-]{36}$/i.test(id) ? await repo.findGroup(tx, caller.workspaceId, id) : undefined;
    if (!row) throw new ScimError(404, 'Group not found.');
    return row;
  }

  /** Writes a user's new state: account (only when this workspace is theirs alone), membership, sessions. */
  async function apply(tx: Db, caller: ScimCaller, row: ScimMemberRow, next: UserState): Promise<void> {
    const { workspaceId } = caller;
    const before = stateOfRow(row);
    const name = joinName(next) || next.email;
    if (next.email !== before.email || name !== row.name) {
      const others = await tx
        .selectFrom('memberships')
        .select('workspace_id')
        .where('user_id', '=', row.user_id)
        .where('workspace_id', '!=', workspaceId)
        .where('status', '!=', 'removed')
        .executeTakeFirst();
      // An account other workspaces share is the person's own: this identity provider may not rename it.
      if (others && next.email !== before.email) {
        throw new ScimError(
          400,
          'This account also belongs to other workspaces: its userName cannot be changed here.',
          'mutability',
        );
      }
      if (!others) await unique(USER_CONSTRAINTS, () => repo.updateUser(tx, row.user_id, { email: next.email, name }));
    }
    if (next.externalId !== before.externalId) {
      await unique(USER_CONSTRAINTS, () =>
        repo.updateMembership(tx, workspaceId, row.user_id, { external_id: next.externalId }),
      );
    }
    if (next.active !== before.active) {
      const change = () =>
        repo.updateMembership(tx, workspaceId, row.user_id, { status: next.active ? 'active' : 'disabled' });
      if (next.active) await assertSeatsAfterChange(tx, workspaceId, billing, change);
      else {
        await change();
        // A deactivated member loses access at once.
        await sessions.endAllForUser(row.user_id, { db: tx });
      }
    }
    await record(
      tx,
      caller,
      next.active || before.active === next.active ? 'scim.user_updated' : 'scim.user_deactivated',
      row.user_id,
      {
        changed: (Object.keys(next) as (keyof UserState)[]).filter((k) => next[k] !== before[k]),
      },
    );
  }

  const transaction = <T>(run: (tx: Db) => Promise<T>) => db.transaction().execute(run);

  async function getGroup(caller: ScimCaller, id: string) {
    const row = await loadGroup(db, caller, id);
    const [group] = await presentGroups(db, caller.workspaceId, [row]);
    return group;
  }

  return {
    // ---- the token, for owners and admins in the app

    async tokenStatus(actor: Actor) {
      assertCan(actor, 'scim:manage');
      const live = await repo.liveToken(db, actor.membership.workspace.id);
      return {
        active: Boolean(live),
        createdAt: live ? new Date(live.created_at).toISOString() : null,
        lastUsedAt: live?.last_used_at ? new Date(live.last_used_at).toISOString() : null,
        baseUrl: base,
      };
    },

    /** A new token (the old one stops working): shown once, kept as its sha-256 only. */
    async issueToken(actor: Actor) {
      assertCan(actor, 'scim:manage');
      assertFeature(actor, 'sso');
      const workspaceId = actor.membership.workspace.id;
      const token = `${TOKEN_PREFIX}${newSecret()}`;
      const id = newId();
      await transaction(async (tx) => {
        const replaced = await repo.revokeToken(tx, workspaceId, new Date());
        await repo.insertToken(tx, { id, workspaceId, tokenHash: hashSecret(token), userId: actor.userId });
        await audit(tx, {
          action: 'scim_token.created',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: id,
          detail: { replaced: replaced ?? null },
        });
      });
      return { token, baseUrl: base };
    },

    async revokeToken(actor: Actor) {
      assertCan(actor, 'scim:manage');
      const workspaceId = actor.membership.workspace.id;
      await transaction(async (tx) => {
        const revoked = await repo.revokeToken(tx, workspaceId, new Date());
        if (!revoked) throw new AppError('not_found', 'There is no SCIM token to revoke.', { status: 404 });
        await audit(tx, { action: 'scim_token.revoked', actorUserId: actor.userId, workspaceId, subjectId: revoked });
      });
    },

    /** The workspace of a bearer token, or undefined: a live token of a workspace whose plan has SSO. */
    async authenticate(token: string, now = new Date()) {
      if (!token.startsWith(TOKEN_PREFIX)) return undefined;
      return repo.useToken(db, hashSecret(token), now);
    },

    // ---- Users

    async listUsers(
      caller: ScimCaller,
      clauses: Clause[],
      page: { offset: number; limit: number; startIndex: number },
    ) {
      const filter: { userName?: string; externalId?: string } = {};
      for (const clause of clauses) {
        if (clause.attribute === 'username' || clause.attribute.startsWith('emails')) filter.userName = clause.value;
        else if (clause.attribute === 'externalid') filter.externalId = clause.value;
        else throw new ScimError(400, `Filtering on ${clause.attribute} is not supported.`, 'invalidFilter');
      }
      // `userName eq "x" or externalId eq "y"` (Entra): either one finds the user.
      const either = clauses.length > 1 && filter.userName !== undefined && filter.externalId !== undefined;
      let found = await repo.listMembers(db, caller.workspaceId, either ? { userName: filter.userName } : filter, page);
      if (either && found.total === 0)
        found = await repo.listMembers(db, caller.workspaceId, { externalId: filter.externalId }, page);
      return list(found.rows.map(presentUser), found.total, page.startIndex);
    },

    async getUser(caller: ScimCaller, id: string) {
      return presentUser(await loadMember(db, caller, id));
    },

    async createUser(caller: ScimCaller, body: Record<string, unknown>) {
      const state = stateOf(body);
      const { workspaceId } = caller;
      const userId = await transaction(async (tx) => {
        const existing = await repo.userByEmail(tx, state.email);
        const membership = existing && (await repo.membership(tx, workspaceId, existing.id));
        if (membership && membership.status !== 'removed') {
          throw new ScimError(409, 'A user with this userName already exists in the workspace.', 'uniqueness');
        }
        // The workspace's allowed e-mail domains hold for provisioning too.
        const refusal = await emailDomainRefusal(tx, workspaceId, state.email);
        if (refusal) throw new ScimError(400, refusal, 'invalidValue');
        const id = existing?.id ?? newId();
        if (!existing) {
          // No password anyone knows: the person signs in with SSO, or sets one with "forgot password".
          const passwordHash = await hashPassword(newSecret());
          await unique(USER_CONSTRAINTS, () =>
            repo.insertUser(tx, { id, email: state.email, name: joinName(state) || state.email, passwordHash }),
          );
        }
        await assertSeatsAfterChange(tx, workspaceId, billing, () =>
          unique(USER_CONSTRAINTS, () =>
            repo.upsertMembership(tx, { workspaceId, userId: id, externalId: state.externalId, active: state.active }),
          ),
        );
        await record(tx, caller, 'scim.user_created', id, { existingAccount: Boolean(existing) });
        return id;
      });
      return presentUser(await loadMember(db, caller, userId));
    },

    async replaceUser(caller: ScimCaller, id: string, body: Record<string, unknown>) {
      await transaction(async (tx) => {
        const row = await loadMember(tx, caller, id);
        await apply(tx, caller, row, stateOf(body, stateOfRow(row)));
      });
      return presentUser(await loadMember(db, caller, id));
    },

    async patchUser(caller: ScimCaller, id: string, body: unknown) {
      const operations = patchOperations(body);
      await transaction(async (tx) => {
        const row = await loadMember(tx, caller, id);
        await apply(tx, caller, row, patched(stateOfRow(row), operations));
      });
      return presentUser(await loadMember(db, caller, id));
    },

    async deleteUser(caller: ScimCaller, id: string) {
      await transaction(async (tx) => {
        const row = await loadMember(tx, caller, id);
        await repo.updateMembership(tx, caller.workspaceId, row.user_id, { status: 'removed', external_id: null });
        await repo.dropAssignments(tx, caller.workspaceId, row.user_id);
        await sessions.endAllForUser(row.user_id, { db: tx });
        await record(tx, caller, 'scim.user_deleted', row.user_id, { email: row.email });
      });
    },

    // ---- Groups (Sundial's groups; SCIM makes them at the top level)

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
        await unique(GROUP_CONSTRAINTS, () => repo.insertGroup(tx, { id, workspaceId: caller.workspaceId, name }));
        await repo.addGroupMembers(tx, caller.workspaceId, id, memberIds(body.members));
        await record(tx, caller, 'scim.group_created', id, { name });
      });
      return getGroup(caller, id);
    },

    async replaceGroup(caller: ScimCaller, id: string, body: Record<string, unknown>) {
      await transaction(async (tx) => {
        const group = await loadGroup(tx, caller, id);
        const name = typeof body.displayName === 'string' ? body.displayName.trim().slice(0, 100) : group.name;
        if (name !== group.name)
          await unique(GROUP_CONSTRAINTS, () => repo.renameGroup(tx, caller.workspaceId, id, name));
        await repo.removeGroupMembers(tx, caller.workspaceId, id, 'all');
        await repo.addGroupMembers(tx, caller.workspaceId, id, memberIds(body.members));
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
              await unique(GROUP_CONSTRAINTS, () => repo.renameGroup(tx, caller.workspaceId, id, name));
          }
          const one = /^members\[value eq "([^"]+)"\]$/.exec(path);
          if (path === 'members' || path === '' || one) {
            const ids = one?.[1]
              ? [one[1]]
              : memberIds(path === '' ? (value as { members?: unknown } | null)?.members : value);
            if (op === 'remove')
              await repo.removeGroupMembers(
                tx,
                caller.workspaceId,
                id,
                path === 'members' && value === undefined ? 'all' : ids,
              );
            else {
              if (op === 'replace') await repo.removeGroupMembers(tx, caller.workspaceId, id, 'all');
              await repo.addGroupMembers(tx, caller.workspaceId, id, ids);
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
        await repo.deleteGroup(tx, caller.workspaceId, id);
        await record(tx, caller, 'scim.group_deleted', id, { name: group.name });
      });
    },
  };
}

function list(resources: unknown[], total: number, startIndex: number) {
  return {
    schemas: [SCHEMA.list],
    totalResults: total,
    startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}

export type ScimService = ReturnType<typeof createScimService>;
