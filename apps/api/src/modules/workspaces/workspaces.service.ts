import {
  type BillingMode,
  emailDomainMessages,
  isEmailDomainAllowed,
  type PlanId,
  TRIAL_DAYS,
  type updateWorkspaceBody,
} from '@sundial/core';
import type { z } from 'zod';
import type { Db } from '../../db/connection.js';
import { assertCan, entitledMembership } from '../../platform/access.js';
import type { Actor, MembershipWithWorkspace, StoredMembership } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import { AppError, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { memberRecords } from '../members/members.service.js';
import { checkLogo } from './workspaces.logo.js';
import { workspacesRepository } from './workspaces.repository.js';

/** What a new workspace needs from other modules, inside its creating transaction. */
export interface WorkspaceSeeds {
  /** The time settings (time-entries), with the owner's zone as the report zone. */
  seedTimeSettings(tx: Db, workspaceId: string, ownerUserId: string): Promise<void>;
}

/**
 * For the ways into a workspace (invites and their acceptance, SSO's just-in-time membership,
 * SCIM): the message when its allowed e-mail domains do not admit the address, else undefined (an
 * empty list admits any). Reads in the caller's transaction, so a list changed meanwhile counts.
 */
export async function emailDomainRefusal(db: Db, workspaceId: string, email: string): Promise<string | undefined> {
  const domains = await workspacesRepository.listEmailDomains(db, workspaceId);
  return isEmailDomainAllowed(domains, email) ? undefined : emailDomainMessages.notAllowed(email, domains);
}

/** 422 email_domain_not_allowed (with `field` named) when the workspace's allowed e-mail domains refuse the address. */
export async function assertEmailDomainAllowed(
  db: Db,
  workspaceId: string,
  email: string,
  options: { field?: string; status?: number } = {},
): Promise<void> {
  const refusal = await emailDomainRefusal(db, workspaceId, email);
  if (!refusal) return;
  throw new AppError('email_domain_not_allowed', refusal, {
    status: options.status ?? 422,
    ...(options.field ? { fields: { [options.field]: refusal } } : {}),
  });
}

/**
 * Workspaces and the memberships actors are built from: every membership this service hands out
 * is resolved against the plan and the operator's BILLING switch (`entitledMembership`).
 */
export function createWorkspacesService(db: Db, seeds: WorkspaceSeeds, mode: BillingMode = { billing: true }) {
  const entitled = (stored: StoredMembership) => entitledMembership(stored, mode);
  return {
    /**
     * Creates a workspace owned by the user, with a 14-day Pro trial. Runs inside the caller's
     * transaction when one is passed (sign-up creates user and workspace together).
     */
    async createOwned(input: { userId: string; name: string; tx?: Db }): Promise<MembershipWithWorkspace> {
      const run = async (tx: Db) => {
        const trialEndsAt = new Date(Date.now() + TRIAL_DAYS * 86_400_000);
        const workspace = await workspacesRepository.insert(tx, {
          id: newId(),
          name: input.name,
          plan: 'free',
          trialEndsAt,
        });
        await memberRecords.add(tx, { workspaceId: workspace.id, userId: input.userId, role: 'owner' });
        await seeds.seedTimeSettings(tx, workspace.id, input.userId);
        await audit(tx, { action: 'workspace.created', actorUserId: input.userId, workspaceId: workspace.id });
        return entitled({ workspace, role: 'owner', status: 'active' });
      };
      return input.tx ? run(input.tx) : db.transaction().execute(run);
    },

    /** The user's membership of the workspace; 404 when there is none, so ids of others leak nothing. */
    async getMembership(workspaceId: string, userId: string): Promise<MembershipWithWorkspace> {
      const membership = await workspacesRepository.findMembership(db, workspaceId, userId);
      if (!membership) throw notFound('Workspace not found.');
      return entitled(membership);
    },

    async list(userId: string): Promise<MembershipWithWorkspace[]> {
      return (await workspacesRepository.listForUser(db, userId)).map(entitled);
    },

    /** Workspaces that disabled or removed the user, so the app can say why they have no access. */
    listInactive(userId: string): Promise<StoredMembership[]> {
      return workspacesRepository.listInactiveForUser(db, userId);
    },

    /** The workspace's allowed e-mail domains (any member may read them); empty: any address may join. */
    emailDomains(workspaceId: string): Promise<string[]> {
      return workspacesRepository.listEmailDomains(db, workspaceId);
    },

    /**
     * Renames the workspace and/or sets its allowed e-mail domains (owner or admin), audited each.
     * Pending invites are not withdrawn: their acceptance checks the list again.
     */
    async update(
      actor: Actor,
      body: z.output<typeof updateWorkspaceBody>,
    ): Promise<{ membership: MembershipWithWorkspace; allowedEmailDomains: string[] }> {
      assertCan(actor, 'workspace:update');
      const { membership, userId } = actor;
      const workspaceId = membership.workspace.id;
      return db.transaction().execute(async (tx) => {
        let workspace = membership.workspace;
        if (body.name !== undefined) {
          workspace = await workspacesRepository.rename(tx, workspaceId, body.name);
          await audit(tx, {
            action: 'workspace.renamed',
            actorUserId: userId,
            workspaceId,
            detail: { from: membership.workspace.name, to: body.name },
          });
        }
        const before = await workspacesRepository.listEmailDomains(tx, workspaceId);
        let allowedEmailDomains = before;
        if (body.allowedEmailDomains !== undefined) {
          allowedEmailDomains = [...body.allowedEmailDomains].sort();
          if (allowedEmailDomains.join() !== before.join()) {
            await workspacesRepository.replaceEmailDomains(tx, workspaceId, allowedEmailDomains);
            await audit(tx, {
              action: 'workspace.email_domains_updated',
              actorUserId: userId,
              workspaceId,
              detail: { from: before, to: allowedEmailDomains },
            });
          }
        }
        return { membership: { ...membership, workspace }, allowedEmailDomains };
      });
    },

    /** The Users screen's "hide disabled users", inside the caller's transaction (members audits it). */
    setHideDisabledUsers(tx: Db, workspaceId: string, value: boolean): Promise<void> {
      return workspacesRepository.setHideDisabledUsers(tx, workspaceId, value);
    },

    /** Which of these workspaces have a logo (the workspace view says so, so the app asks only then). */
    withLogo(workspaceIds: readonly string[]): Promise<Set<string>> {
      return workspacesRepository.withLogo(db, workspaceIds);
    },

    /** The workspace's logo, for any member (the PDF exports show it); null when it has none. */
    async logo(workspaceId: string): Promise<{ contentType: string; data: Buffer; updatedAt: Date } | null> {
      const row = await workspacesRepository.findLogo(db, workspaceId);
      return row ? { contentType: row.content_type, data: Buffer.from(row.data), updatedAt: row.updated_at } : null;
    },

    /**
     * Sets the workspace's logo (owner or admin): a PNG or JPEG, checked by its bytes (422
     * invalid_logo saying what is wrong), replacing the one before. Setting the same bytes again
     * changes nothing but the time.
     */
    async setLogo(actor: Actor, data: Buffer): Promise<{ contentType: string; width: number; height: number }> {
      assertCan(actor, 'workspace:update');
      const checked = checkLogo(data);
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        await workspacesRepository.saveLogo(tx, { workspaceId, ...checked, data, userId: actor.userId });
        await audit(tx, {
          action: 'workspace.logo_updated',
          actorUserId: actor.userId,
          workspaceId,
          detail: {
            contentType: checked.contentType,
            width: checked.width,
            height: checked.height,
            bytes: data.length,
          },
        });
      });
      return checked;
    },

    /** Removes the workspace's logo (owner or admin); 404 when it has none. */
    async removeLogo(actor: Actor): Promise<void> {
      assertCan(actor, 'workspace:update');
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        if (!(await workspacesRepository.deleteLogo(tx, workspaceId))) throw notFound('This workspace has no logo.');
        await audit(tx, { action: 'workspace.logo_removed', actorUserId: actor.userId, workspaceId });
      });
    },

    /**
     * Sets the plan and licenses the workspace paid for, inside the caller's transaction (the
     * billing module's, which issues the invoice in the same one). No permission check: billing has
     * made its own.
     */
    async setPlan(tx: Db, workspaceId: string, terms: { plan: PlanId; licenses: number }): Promise<void> {
      await workspacesRepository.setPlan(tx, workspaceId, terms);
    },

    /**
     * Ends the workspace's trial now (the owner chose Free), inside billing's transaction; false when
     * no trial was running. Free's limits apply from `at`, data is kept.
     */
    endTrial(tx: Db, workspaceId: string, at: Date): Promise<boolean> {
      return workspacesRepository.endTrial(tx, workspaceId, at);
    },
  };
}

export type WorkspacesService = ReturnType<typeof createWorkspacesService>;
