import type { BillingMode } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { assertCan, assertFeature } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import { AppError } from '../../platform/errors.js';
import { hashSecret, newId, newSecret } from '../../platform/ids.js';
import type { InvitesService } from '../invites/invites.service.js';
import { createScimGroups } from './scim.groups.js';
import { scimRepository as repo } from './scim.repository.js';
import { createScimUsers } from './scim.users.js';

export type { ScimCaller } from './scim.shared.js';

/** Tokens start with this, so a leaked one is recognisable (and scanners can find it). */
const TOKEN_PREFIX = 'sdscim_';

/**
 * SCIM provisioning (Pro, with SSO): an identity provider creates, changes, deactivates and
 * removes what the workspace owns, its memberships and the accounts it made, and keeps its groups,
 * through one bearer token per workspace (issue 29). A new address gets an account and a
 * membership; an address that has an account gets an invitation, and its person joins only by
 * accepting it (until then the User is the invitation, its own id; after, the same id is the
 * membership). Deactivating disables the membership, deleting removes it (their time stays
 * attributed): the person loses this workspace, never their sessions or their other workspaces.
 * The account's e-mail and name change only on an account this workspace made and nobody used
 * otherwise. The owner is not a SCIM user. Every change is audited, by the token.
 */
export function createScimService(deps: {
  db: Db;
  invites: Pick<InvitesService, 'inviteForProvisioning' | 'withdrawForProvisioning' | 'provisionedInviteState'>;
  billing: BillingMode;
  publicUrl: string;
}) {
  const { db, invites, billing } = deps;
  const base = `${deps.publicUrl.replace(/\/$/, '')}/scim/v2`;
  const transaction = <T>(run: (tx: Db) => Promise<T>) => db.transaction().execute(run);

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

    ...createScimUsers({ db, invites, billing, base }),
    ...createScimGroups({ db, base }),
  };
}

export type ScimService = ReturnType<typeof createScimService>;
