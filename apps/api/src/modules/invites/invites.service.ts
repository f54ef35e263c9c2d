import {
  type AcceptInviteBody,
  INVITE_VALID_DAYS,
  type InviteBody,
  inviteBody,
  limitMessages,
  messages,
  ROLE_LABELS,
  teamMessages,
} from '@sundial/core';
import type { Config } from '../../config.js';
import type { Db } from '../../db/connection.js';
import type { Invite } from '../../db/tables/team.js';
import type { User } from '../../db/tables.js';
import { assertCan, assertFeature, assertSeatsAfterChange } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import {
  AppError,
  type ConstraintTable,
  constraintViolation,
  notFound,
  validationError,
} from '../../platform/errors.js';
import { hashSecret, newId, newSecret } from '../../platform/ids.js';
import type { Mailer } from '../../platform/mail.js';
import { checkNewPassword, hashPassword } from '../../platform/passwords.js';
import { rateLimiter } from '../../platform/rate-limits.js';
import type { SessionStore, StartedSession } from '../../platform/sessions.js';
import type { AuthService, ClientInfo } from '../auth/auth.service.js';
import { groupNotFound, groupRecords } from '../groups/groups.service.js';
import { memberRecords } from '../members/members.service.js';
import { usersService } from '../users/users.service.js';
import { assertEmailDomainAllowed, emailDomainRefusal } from '../workspaces/workspaces.service.js';
import { inviteMail } from './invites.mails.js';
import { type InviteWithWorkspace, invitesRepository } from './invites.repository.js';

const VALID_MS = INVITE_VALID_DAYS * 86_400_000;
/** Invitation e-mails one workspace may send per hour, so the feature cannot be used to spam. */
export const MAX_INVITE_MAILS_PER_HOUR = 200;

/** Someone signed up with the invited address at the same moment. */
const ACCOUNT_CONSTRAINTS: ConstraintTable = {
  users_email_key: { code: 'email_taken', message: messages.emailTaken },
};

async function assertMailBudget(db: Db, workspaceId: string, count: number): Promise<void> {
  const sent = await invitesRepository.countMailsSince(db, workspaceId, new Date(Date.now() - 3_600_000));
  if (sent + count > MAX_INVITE_MAILS_PER_HOUR) {
    throw new AppError('too_many_invites', teamMessages.tooManyInvites(MAX_INVITE_MAILS_PER_HOUR), {
      status: 429,
      headers: { 'retry-after': '3600' },
    });
  }
}

/**
 * Counts one more sending of an existing invite (a resend, or inviting a pending address again);
 * 429 past RATE_LIMIT_INVITE_RESEND an hour, so one person cannot be flooded with invitations.
 */
async function countResend(db: Db, limit: number, invite: { workspaceId: string; id: string }): Promise<void> {
  await rateLimiter.hit(db, {
    bucket: `invite-resend:${invite.workspaceId}:${invite.id}`,
    limit,
    windowMs: 3_600_000,
    message: limitMessages.inviteResend,
  });
}

export interface InviteView {
  id: string;
  email: string;
  role: Invite['role'];
  roleLabel: string;
  groupId: string | null;
  status: 'pending' | 'expired';
  sentAt: string;
  sendCount: number;
  expiresAt: string;
  createdAt: string;
}

export function presentInvite(invite: Invite, now = new Date()): InviteView {
  return {
    id: invite.id,
    email: invite.email,
    role: invite.role,
    roleLabel: ROLE_LABELS[invite.role],
    groupId: invite.group_id,
    status: new Date(invite.expires_at).getTime() > now.getTime() ? 'pending' : 'expired',
    sentAt: new Date(invite.sent_at).toISOString(),
    sendCount: invite.send_count,
    expiresAt: new Date(invite.expires_at).toISOString(),
    createdAt: new Date(invite.created_at).toISOString(),
  };
}

/** 404 for an unknown link, 410 for one accepted, withdrawn or expired. */
function assertUsable(invite: InviteWithWorkspace | undefined): asserts invite is InviteWithWorkspace {
  if (!invite) throw new AppError('invite_invalid', teamMessages.inviteInvalid, { status: 404 });
  if (invite.accepted_at) throw new AppError('invite_used', teamMessages.inviteUsed, { status: 410 });
  if (invite.revoked_at) throw new AppError('invite_revoked', teamMessages.inviteRevoked, { status: 410 });
  if (new Date(invite.expires_at).getTime() <= Date.now()) {
    throw new AppError('invite_expired', teamMessages.inviteExpired, { status: 410 });
  }
}

/** Refuses the invite when any address has a problem: each named at its place, the first as the message. */
function refuseAddresses(code: string, status: number, problems: Record<string, string>): void {
  const first = Object.values(problems)[0];
  if (first !== undefined) throw new AppError(code, first, { status, fields: problems });
}

export interface InvitesServiceDeps {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'RATE_LIMIT_INVITE_RESEND' | 'billing'>;
  mailer: Mailer;
  sessions: SessionStore;
  auth: AuthService;
}

export function createInvitesService({ db, config, mailer, sessions, auth }: InvitesServiceDeps) {
  const linkFor = (token: string) => `${config.publicUrl}/invite?token=${encodeURIComponent(token)}`;

  async function mail(invite: Invite, token: string, inviter: string, workspaceName: string): Promise<void> {
    await mailer.send({
      to: invite.email,
      ...inviteMail({
        inviter,
        workspaceName,
        role: invite.role,
        link: linkFor(token),
        days: INVITE_VALID_DAYS,
      }),
    });
  }

  /** Joins a user to the invite's workspace (and group) and uses the invite up, inside a transaction. */
  async function join(tx: Db, invite: InviteWithWorkspace, userId: string): Promise<void> {
    // The allowed e-mail domains may have changed since the invite was sent.
    await assertEmailDomainAllowed(tx, invite.workspace_id, invite.email);
    const existing = await memberRecords.find(tx, invite.workspace_id, userId);
    if (existing) {
      throw new AppError('already_member', teamMessages.alreadyMember(invite.email), { status: 409 });
    }
    await assertSeatsAfterChange(tx, invite.workspace_id, config.billing, async () => {
      await memberRecords.add(tx, { workspaceId: invite.workspace_id, userId, role: invite.role });
      await invitesRepository.markAccepted(tx, invite.id, userId);
    });
    if (invite.group_id) {
      await groupRecords.addMember(tx, { workspaceId: invite.workspace_id, groupId: invite.group_id, userId });
    }
    await usersService.enterWorkspace(tx, userId, invite.workspace_id);
    await audit(tx, {
      action: 'invite.accepted',
      actorUserId: userId,
      workspaceId: invite.workspace_id,
      subjectId: invite.id,
      detail: { role: invite.role },
    });
  }

  /**
   * Invites one address (renewing its pending invite, counted as a resend), audited as sent; in
   * the caller's transaction, inside its seat check. The link is mailed after the commit.
   */
  async function issue(
    tx: Db,
    input: {
      workspaceId: string;
      email: string;
      role: Invite['role'];
      groupId: string | null;
      invitedBy: string | null;
    },
  ): Promise<{ invite: Invite; token: string }> {
    const { workspaceId, email } = input;
    const token = newSecret();
    const expiresAt = new Date(Date.now() + VALID_MS);
    const pending = await invitesRepository.findPendingByEmail(tx, workspaceId, email);
    if (pending) await countResend(tx, config.RATE_LIMIT_INVITE_RESEND, { workspaceId, id: pending.id });
    const changes = {
      token_hash: hashSecret(token),
      expires_at: expiresAt,
      role: input.role,
      group_id: input.groupId,
      invited_by_user_id: input.invitedBy,
    };
    const invite = pending
      ? await invitesRepository.renew(tx, workspaceId, pending.id, changes)
      : await invitesRepository.insert(tx, { id: newId(), workspace_id: workspaceId, email, ...changes });
    await audit(tx, {
      action: 'invite.sent',
      actorUserId: input.invitedBy,
      workspaceId,
      subjectId: invite.id,
      detail: { email, role: input.role, ...(input.invitedBy ? {} : { via: 'scim' }) },
    });
    return { invite, token };
  }

  /**
   * Gives a pending invite a new link and expiry (the old link stops working), for a resend
   * (counted against the resend and mail limits) or a copied link. 404 unless it is pending.
   */
  async function issueNewLink(
    actor: Actor,
    inviteId: string,
    kind: 'resend' | 'link',
  ): Promise<{ invite: Invite; token: string }> {
    assertCan(actor, 'members:invite');
    const workspaceId = actor.membership.workspace.id;
    const token = newSecret();
    const invite = await db.transaction().execute(async (tx) => {
      const found = await invitesRepository.find(tx, workspaceId, inviteId);
      if (!found || found.accepted_at || found.revoked_at) throw notFound('Invitation not found.');
      if (kind === 'resend') {
        await countResend(tx, config.RATE_LIMIT_INVITE_RESEND, { workspaceId, id: inviteId });
        await assertMailBudget(tx, workspaceId, 1);
      }
      const values = { token_hash: hashSecret(token), expires_at: new Date(Date.now() + VALID_MS) };
      let renewed: Invite | undefined;
      // An expired invite holds no seat; made usable again, it must fit in the licenses.
      await assertSeatsAfterChange(tx, workspaceId, config.billing, async () => {
        renewed =
          kind === 'resend'
            ? await invitesRepository.renew(tx, workspaceId, inviteId, { ...values, invited_by_user_id: actor.userId })
            : await invitesRepository.replaceToken(tx, workspaceId, inviteId, values);
      });
      const action = kind === 'resend' ? 'invite.resent' : 'invite.link_issued';
      await audit(tx, { action, actorUserId: actor.userId, workspaceId, subjectId: inviteId });
      if (!renewed) throw notFound('Invitation not found.');
      return renewed;
    });
    return { invite, token };
  }

  return {
    /**
     * The invitation a workspace's identity provider (SCIM) sends to an address that already has
     * an account: the same invite, limits and e-mail as a person's, as a Regular user, from "the
     * identity provider of <workspace>". The person joins only by accepting it (issue 29). Runs in
     * the caller's transaction; `send` mails it once that has committed.
     */
    async inviteForProvisioning(
      tx: Db,
      input: { workspaceId: string; workspaceName: string; email: string },
    ): Promise<{ invite: Invite; send: () => Promise<void> }> {
      const { workspaceId, workspaceName, email } = input;
      await assertMailBudget(tx, workspaceId, 1);
      let issued: { invite: Invite; token: string } | undefined;
      await assertSeatsAfterChange(tx, workspaceId, config.billing, async () => {
        issued = await issue(tx, { workspaceId, email, role: 'member', groupId: null, invitedBy: null });
      });
      if (!issued) throw notFound('Invitation not found.');
      const { invite, token } = issued;
      return { invite, send: () => mail(invite, token, `The identity provider of ${workspaceName}`, workspaceName) };
    },

    /** Withdraws a pending invite for the identity provider (SCIM), in the caller's transaction; audited. */
    async withdrawForProvisioning(tx: Db, workspaceId: string, inviteId: string): Promise<void> {
      const found = await invitesRepository.find(tx, workspaceId, inviteId);
      if (!found || found.accepted_at || found.revoked_at) return;
      await invitesRepository.revoke(tx, workspaceId, inviteId);
      await audit(tx, { action: 'invite.revoked', workspaceId, subjectId: inviteId, detail: { via: 'scim' } });
    },

    /** The state of an invite SCIM made: whether it may still be accepted, and by whom it was. */
    async provisionedInviteState(db: Db, workspaceId: string, inviteId: string) {
      const found = await invitesRepository.find(db, workspaceId, inviteId);
      return {
        usable: Boolean(found && !found.accepted_at && !found.revoked_at && new Date(found.expires_at) > new Date()),
        acceptedUserId: found?.accepted_user_id ?? null,
      };
    },

    async listPending(actor: Actor): Promise<InviteView[]> {
      assertCan(actor, 'members:invite');
      const invites = await invitesRepository.listPending(db, actor.membership.workspace.id);
      return invites.map((i) => presentInvite(i));
    },

    /**
     * Invites one or many people with a role and optional group, e-mailing each a single-use link
     * valid for INVITE_VALID_DAYS. Inviting an address with a pending invite renews it. Refuses
     * addresses that are already members (409), addresses outside the workspace's allowed e-mail
     * domains (422 email_domain_not_allowed, each named), and, on a paid plan, non-guest invites beyond the
     * licenses (402 seat_limit_reached) and past the mail limits (429); nothing is sent unless all can be.
     */
    async create(actor: Actor & { user: User }, input: InviteBody): Promise<InviteView[]> {
      assertCan(actor, 'members:invite');
      const body = inviteBody.parse(input);
      // Inviting someone as a Manager needs management roles (Basic).
      if (body.role === 'manager') assertFeature(actor, 'management_roles');
      const workspaceId = actor.membership.workspace.id;
      const emails = [...new Set(body.emails)];
      const sent = await db.transaction().execute(async (tx) => {
        await assertMailBudget(tx, workspaceId, emails.length);
        if (body.groupId && !(await groupRecords.find(tx, workspaceId, body.groupId))) throw groupNotFound();
        const taken: Record<string, string> = {};
        for (const [index, email] of emails.entries()) {
          if (await memberRecords.findByEmail(tx, workspaceId, email)) {
            taken[`emails.${index}`] = teamMessages.alreadyMember(email);
          }
        }
        refuseAddresses('already_member', 409, taken);
        const outside: Record<string, string> = {};
        for (const [index, email] of emails.entries()) {
          const refusal = await emailDomainRefusal(tx, workspaceId, email);
          if (refusal) outside[`emails.${index}`] = refusal;
        }
        refuseAddresses('email_domain_not_allowed', 422, outside);
        const result: Array<{ invite: Invite; token: string }> = [];
        await assertSeatsAfterChange(tx, workspaceId, config.billing, async () => {
          for (const email of emails) {
            const issued = await issue(tx, {
              workspaceId,
              email,
              role: body.role,
              groupId: body.groupId ?? null,
              invitedBy: actor.userId,
            });
            result.push(issued);
          }
        });
        return result;
      });
      // After the commit: the outbox write must not run inside the transaction.
      for (const { invite, token } of sent)
        await mail(invite, token, actor.user.name || actor.user.email, actor.membership.workspace.name);
      return sent.map(({ invite }) => presentInvite(invite));
    },

    /**
     * Sends a pending invite again with a new link (the old one stops working) and a new expiry.
     * 429 past RATE_LIMIT_INVITE_RESEND resends of the invite an hour, or past the workspace's mail budget.
     */
    async resend(actor: Actor & { user: User }, inviteId: string): Promise<InviteView> {
      const { invite, token } = await issueNewLink(actor, inviteId, 'resend');
      await mail(invite, token, actor.user.name || actor.user.email, actor.membership.workspace.name);
      return presentInvite(invite);
    },

    /**
     * A working link for a pending invite, for the inviter to hand over themselves (chat, or no
     * mail server at all). The link is not kept (only its hash is), so this issues a new one with a
     * new expiry, like resend but without mailing: the link e-mailed before stops working. No mail
     * leaves, so the mail limits do not apply. 404 for an accepted, withdrawn or unknown invite.
     */
    async link(actor: Actor, inviteId: string): Promise<{ url: string; invite: InviteView }> {
      const { invite, token } = await issueNewLink(actor, inviteId, 'link');
      return { url: linkFor(token), invite: presentInvite(invite) };
    },

    /** Withdraws a pending invite; its link stops working and its seat is free again. */
    async revoke(actor: Actor, inviteId: string): Promise<void> {
      assertCan(actor, 'members:invite');
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        const found = await invitesRepository.find(tx, workspaceId, inviteId);
        if (!found || found.accepted_at || found.revoked_at) throw notFound('Invitation not found.');
        await invitesRepository.revoke(tx, workspaceId, inviteId);
        await audit(tx, { action: 'invite.revoked', actorUserId: actor.userId, workspaceId, subjectId: inviteId });
      });
    },

    /** What the link's page shows before accepting; 404 unknown link, 410 used, withdrawn or expired. */
    async preview(token: string) {
      const invite = await invitesRepository.findByTokenHash(db, hashSecret(token));
      assertUsable(invite);
      const account = await usersService.findByEmail(db, invite.email);
      return {
        email: invite.email,
        workspaceName: invite.workspace_name,
        inviter: invite.inviter_name || invite.inviter_email || '',
        role: invite.role,
        roleLabel: ROLE_LABELS[invite.role],
        hasAccount: Boolean(account),
        expiresAt: new Date(invite.expires_at).toISOString(),
      };
    },

    /**
     * Accepts an invite. Signed in as the invited address: joins. Not signed in: an existing
     * account confirms its password (same limits as log-in), a new one chooses a password and
     * is created; either way a session starts. Signed in as someone else: 403.
     */
    async accept(input: {
      token: string;
      body: AcceptInviteBody;
      currentUser?: User;
      client: ClientInfo;
    }): Promise<{ user: User; workspaceId: string; session?: StartedSession }> {
      const tokenHash = hashSecret(input.token);
      const invite = await invitesRepository.findByTokenHash(db, tokenHash);
      assertUsable(invite);
      const { currentUser, body } = input;
      if (currentUser && currentUser.email.toLowerCase() !== invite.email.toLowerCase()) {
        throw new AppError('invite_other_account', teamMessages.inviteOtherAccount(invite.email), { status: 403 });
      }
      const existing = currentUser ?? (await usersService.findByEmail(db, invite.email));

      if (existing) {
        let session: StartedSession | undefined;
        if (!currentUser) {
          if (!body.password) throw validationError({ password: messages.allFieldsRequired });
          session = (await auth.login({ email: invite.email, password: body.password }, input.client)).session;
        }
        try {
          await db.transaction().execute(async (tx) => {
            const locked = await invitesRepository.findByTokenHash(tx, tokenHash, { lock: true });
            assertUsable(locked);
            await join(tx, locked, existing.id);
          });
        } catch (error) {
          // Nothing was joined, so no cookie is set: the session just started must not outlive the answer.
          if (session) await sessions.end(session.secret);
          throw error;
        }
        const user = (await usersService.findById(db, existing.id)) ?? existing;
        return { user, workspaceId: invite.workspace_id, session };
      }

      const password = body.password ?? '';
      if (!password) throw validationError({ password: messages.allFieldsRequired });
      const problem = checkNewPassword(password);
      if (problem) throw validationError({ password: problem });
      const passwordHash = await hashPassword(password);
      try {
        return await db.transaction().execute(async (tx) => {
          const locked = await invitesRepository.findByTokenHash(tx, tokenHash, { lock: true });
          assertUsable(locked);
          const userId = newId();
          await usersService.insert(tx, {
            id: userId,
            email: locked.email,
            password_hash: passwordHash,
            name: body.name ?? '',
            phone: null,
            time_zone: 'UTC',
          });
          await join(tx, locked, userId);
          await audit(tx, { action: 'user.signed_up', actorUserId: userId, workspaceId: locked.workspace_id });
          // The invite link proves nothing of the mailbox (an inviter may hand it over: `link`).
          await auth.sendVerificationLink(tx, { id: userId, email: locked.email });
          const session = await sessions.start({ userId, remember: false, ...input.client, db: tx });
          const user = await usersService.findById(tx, userId);
          if (!user) throw notFound();
          return { user, workspaceId: locked.workspace_id, session };
        });
      } catch (error) {
        throw constraintViolation(error, ACCOUNT_CONSTRAINTS) ?? error;
      }
    },
  };
}

export type InvitesService = ReturnType<typeof createInvitesService>;
