import { type BillingMode, emailSchema } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { assertSeatsAfterChange } from '../../platform/access.js';
import type { ConstraintTable } from '../../platform/errors.js';
import { newId, newSecret } from '../../platform/ids.js';
import { hashPassword } from '../../platform/passwords.js';
import type { InvitesService } from '../invites/invites.service.js';
import { memberRecords } from '../members/members.service.js';
import { usersService } from '../users/users.service.js';
import { emailDomainRefusal } from '../workspaces/workspaces.service.js';
import { asBoolean, type Clause, type PatchOperation, patchOperations, SCHEMA, ScimError } from './scim.protocol.js';
import { scimRepository as repo, type ScimMemberRow, type ScimPendingRow } from './scim.repository.js';
import { list, recordScim as record, type ScimCaller, unique } from './scim.shared.js';

const USER_CONSTRAINTS: ConstraintTable = {
  memberships_external_id_key: {
    code: 'uniqueness',
    message: 'Another user already has this externalId.',
    status: 409,
  },
  users_email_key: { code: 'uniqueness', message: 'Another account already has this userName.', status: 409 },
  scim_pending_users_email_key: {
    code: 'uniqueness',
    message: 'A user with this userName already exists in the workspace.',
    status: 409,
  },
};

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
const stateOfPending = (row: ScimPendingRow): UserState => ({
  email: row.email,
  ...splitName(row.name),
  externalId: row.external_id,
  active: row.active,
});

/** A SCIM User as the presenter shows it: a member's, or an invited person's (the same attributes). */
interface UserResource {
  id: string;
  email: string;
  name: string;
  externalId: string | null;
  active: boolean;
  createdAt: Date;
}
const memberResource = (row: ScimMemberRow): UserResource => ({
  id: row.scim_id,
  email: row.email,
  name: row.name,
  externalId: row.external_id,
  active: row.status === 'active',
  createdAt: row.created_at,
});
const pendingResource = (row: ScimPendingRow): UserResource => ({
  id: row.id,
  email: row.email,
  name: row.name,
  externalId: row.external_id,
  active: row.active,
  createdAt: row.created_at,
});

/**
 * SCIM's Users: members, and people invited who have not accepted (see `createScimService`).
 * Memberships and accounts are written through the members and users services.
 */
export function createScimUsers(deps: {
  db: Db;
  invites: Pick<InvitesService, 'inviteForProvisioning' | 'withdrawForProvisioning' | 'provisionedInviteState'>;
  billing: BillingMode;
  /** The SCIM base URL, for each resource's location. */
  base: string;
}) {
  const { db, invites, billing, base } = deps;
  const transaction = <T>(run: (tx: Db) => Promise<T>) => db.transaction().execute(run);

  const presentUser = (row: UserResource) => {
    const { givenName, familyName } = splitName(row.name);
    return {
      schemas: [SCHEMA.user],
      id: row.id,
      ...(row.externalId ? { externalId: row.externalId } : {}),
      userName: row.email,
      name: { formatted: row.name, givenName, familyName },
      displayName: row.name,
      emails: [{ value: row.email, type: 'work', primary: true }],
      active: row.active,
      meta: {
        resourceType: 'User',
        created: new Date(row.createdAt).toISOString(),
        location: `${base}/Users/${row.id}`,
      },
    };
  };

  /** A User by its SCIM id: a member, or someone invited who has not accepted; 404 otherwise. */
  async function loadUser(
    tx: Db,
    caller: ScimCaller,
    id: string,
  ): Promise<{ member: ScimMemberRow; pending?: undefined } | { member?: undefined; pending: ScimPendingRow }> {
    if (/^[0-9a-f-]{36}$/i.test(id)) {
      const member = await repo.findMember(tx, caller.workspaceId, id);
      if (member) return { member };
      const pending = await repo.findPending(tx, caller.workspaceId, id);
      if (pending) return { pending };
    }
    throw new ScimError(404, 'User not found.');
  }

  async function presentById(caller: ScimCaller, id: string) {
    const found = await loadUser(db, caller, id);
    return presentUser(found.member ? memberResource(found.member) : pendingResource(found.pending));
  }

  /**
   * Writes a member's new state. The account's e-mail and name are the person's: they change only
   * on an account this workspace made and nobody used otherwise (`isWorkspaceOwnAccount`); another
   * e-mail is refused (400 mutability), another name is not kept. Deactivating disables the
   * membership only: the person's sessions keep their other workspaces, and lose this one at once
   * (a request to it finds no active membership).
   */
  async function apply(tx: Db, caller: ScimCaller, row: ScimMemberRow, next: UserState): Promise<void> {
    const { workspaceId } = caller;
    const before = stateOfRow(row);
    const name = joinName(next) || next.email;
    if (next.email !== before.email || name !== row.name) {
      const own = await repo.isWorkspaceOwnAccount(tx, workspaceId, row.user_id);
      if (!own && next.email !== before.email) {
        throw new ScimError(
          400,
          "This person's account is their own (it was not made by this workspace's provisioning, or they have used it): its userName cannot be changed here.",
          'mutability',
        );
      }
      if (own)
        await unique(USER_CONSTRAINTS, () => usersService.changeIdentity(tx, row.user_id, { email: next.email, name }));
    }
    if (next.externalId !== before.externalId) {
      await unique(USER_CONSTRAINTS, () =>
        memberRecords.update(tx, workspaceId, row.user_id, { external_id: next.externalId }),
      );
    }
    if (next.active !== before.active) {
      const change = () =>
        memberRecords.update(tx, workspaceId, row.user_id, { status: next.active ? 'active' : 'disabled' });
      if (next.active) await assertSeatsAfterChange(tx, workspaceId, billing, change);
      else await change();
    }
    await record(
      tx,
      caller,
      next.active || before.active === next.active ? 'scim.user_updated' : 'scim.user_deactivated',
      row.scim_id,
      {
        changed: (Object.keys(next) as (keyof UserState)[]).filter((k) => next[k] !== before[k]),
      },
    );
  }

  /**
   * Invites an address that has an account, for the pending User `id` (new or kept): a fresh
   * invitation (the old link stops working), or, inactive, none usable. Answers the mail to send
   * after the commit.
   */
  async function invite(
    tx: Db,
    caller: ScimCaller,
    id: string,
    state: UserState,
  ): Promise<(() => Promise<void>) | undefined> {
    const { invite: made, send } = await invites.inviteForProvisioning(tx, {
      workspaceId: caller.workspaceId,
      workspaceName: caller.workspaceName,
      email: state.email,
    });
    if (!state.active) await invites.withdrawForProvisioning(tx, caller.workspaceId, made.id);
    // Two creates of one address at once: the second meets the first's row, a uniqueness error.
    await unique(USER_CONSTRAINTS, () =>
      repo.savePending(tx, {
        id,
        workspaceId: caller.workspaceId,
        inviteId: made.id,
        email: state.email,
        name: joinName(state) || state.email,
        externalId: state.externalId,
        active: state.active,
      }),
    );
    return state.active ? send : undefined;
  }

  /**
   * Writes an invited person's new state: their name and externalId as the provider calls them;
   * inactive withdraws the invitation, active again sends a new one. The address is the
   * invitation's: another one is refused (delete the User and create it anew).
   */
  async function applyPending(tx: Db, caller: ScimCaller, row: ScimPendingRow, next: UserState) {
    const before = stateOfPending(row);
    if (next.email !== before.email) {
      throw new ScimError(
        400,
        'The userName of someone invited cannot change: delete the user and create it again.',
        'mutability',
      );
    }
    let send: (() => Promise<void>) | undefined;
    if (next.active && !before.active) send = await invite(tx, caller, row.id, next);
    else {
      if (!next.active && before.active) await invites.withdrawForProvisioning(tx, caller.workspaceId, row.invite_id);
      await repo.savePending(tx, {
        id: row.id,
        workspaceId: caller.workspaceId,
        inviteId: row.invite_id,
        email: row.email,
        name: joinName(next) || next.email,
        externalId: next.externalId,
        active: next.active,
      });
    }
    await record(tx, caller, next.active ? 'scim.user_updated' : 'scim.user_deactivated', row.id, {
      changed: (Object.keys(next) as (keyof UserState)[]).filter((k) => next[k] !== before[k]),
    });
    return send;
  }

  /** Runs a change of one User (member or invited) in a transaction, mails what it asks after the commit, and presents it. */
  async function change(caller: ScimCaller, id: string, nextOf: (state: UserState) => UserState) {
    const send = await transaction(async (tx) => {
      const found = await loadUser(tx, caller, id);
      if (found.member) {
        await apply(tx, caller, found.member, nextOf(stateOfRow(found.member)));
        return undefined;
      }
      return applyPending(tx, caller, found.pending, nextOf(stateOfPending(found.pending)));
    });
    await send?.();
    return presentById(caller, id);
  }

  return {
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
      let found = await repo.listUsers(db, caller.workspaceId, either ? { userName: filter.userName } : filter, page);
      if (either && found.total === 0)
        found = await repo.listUsers(db, caller.workspaceId, { externalId: filter.externalId }, page);
      const resources = [...found.members.map(memberResource), ...found.pending.map(pendingResource)];
      return list(resources.map(presentUser), found.total, page.startIndex);
    },

    async getUser(caller: ScimCaller, id: string) {
      return presentById(caller, id);
    },

    /**
     * A new address: an account (no password anyone knows: SSO, or "forgot password") and a
     * membership. An address that has an account: an invitation, never a membership; the answer
     * is the same User either way, with nothing of the account in it. 409 when the address is a
     * member already, or invited and the invitation still open (a retry).
     */
    async createUser(caller: ScimCaller, body: Record<string, unknown>) {
      const state = stateOf(body);
      const { workspaceId } = caller;
      const { id, send } = await transaction(async (tx) => {
        const existing = await repo.userByEmail(tx, state.email);
        const membership = existing && (await repo.membership(tx, workspaceId, existing.id));
        const pending = await repo.pendingByEmail(tx, workspaceId, state.email);
        const open = pending && (await repo.findPending(tx, workspaceId, pending.id));
        const inviteOpen =
          open?.active && (await invites.provisionedInviteState(tx, workspaceId, open.invite_id)).usable;
        if ((membership && membership.status !== 'removed') || inviteOpen) {
          throw new ScimError(409, 'A user with this userName already exists in the workspace.', 'uniqueness');
        }
        // The workspace's allowed e-mail domains hold for provisioning too.
        const refusal = await emailDomainRefusal(tx, workspaceId, state.email);
        if (refusal) throw new ScimError(400, refusal, 'invalidValue');
        if (existing) {
          const pendingId = pending?.id ?? newId();
          const mail = await invite(tx, caller, pendingId, state);
          await record(tx, caller, 'scim.user_created', pendingId);
          return { id: pendingId, send: mail };
        }
        const userId = newId();
        const passwordHash = await hashPassword(newSecret());
        // The account inside the seat check: its workspace reference would otherwise share-lock the
        // workspace row before the check locks it, and two creates at once would deadlock.
        await assertSeatsAfterChange(tx, workspaceId, billing, () =>
          unique(USER_CONSTRAINTS, async () => {
            await usersService.insert(tx, {
              id: userId,
              email: state.email,
              name: joinName(state) || state.email,
              password_hash: passwordHash,
              time_zone: 'UTC',
              provisioned_by_workspace_id: workspaceId,
            });
            await memberRecords.provision(tx, {
              workspaceId,
              userId,
              externalId: state.externalId,
              active: state.active,
            });
          }),
        );
        await record(tx, caller, 'scim.user_created', userId);
        return { id: userId, send: undefined };
      });
      await send?.();
      return presentById(caller, id);
    },

    async replaceUser(caller: ScimCaller, id: string, body: Record<string, unknown>) {
      return change(caller, id, (state) => stateOf(body, state));
    },

    async patchUser(caller: ScimCaller, id: string, body: unknown) {
      const operations = patchOperations(body);
      return change(caller, id, (state) => patched(state, operations));
    },

    /** Removes the membership (or withdraws the invitation): the person keeps their account and sessions. */
    async deleteUser(caller: ScimCaller, id: string) {
      await transaction(async (tx) => {
        const found = await loadUser(tx, caller, id);
        if (found.pending) {
          await invites.withdrawForProvisioning(tx, caller.workspaceId, found.pending.invite_id);
          await repo.deletePending(tx, caller.workspaceId, found.pending.id);
          await record(tx, caller, 'scim.user_deleted', id, { email: found.pending.email });
          return;
        }
        const row = found.member;
        await memberRecords.remove(tx, caller.workspaceId, row.user_id);
        await record(tx, caller, 'scim.user_deleted', id, { email: row.email });
      });
    },
  };
}
