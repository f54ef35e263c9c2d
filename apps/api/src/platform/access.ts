import {
  type ApprovalSettings,
  type BillingMode,
  can,
  effectivePermissions,
  effectiveRole,
  type Feature,
  featureLockedMessage,
  type Permission,
  ROLES,
  type Role,
  seatLimit,
  teamMessages,
  workspaceFeatures,
} from '@sundial/core';
import type { Db } from '../db/connection.js';
import type { Workspace } from '../db/tables.js';
import { accessRepository, LED_ROLES, type ProjectViewer } from './access.repository.js';
import type { Actor, MembershipWithWorkspace, StoredMembership } from './actor.js';
import { AppError, forbidden } from './errors.js';

type ApproverRule = ApprovalSettings['approverRule'];

/**
 * The access rules in one place: what a role may do (the permission matrix in packages/core),
 * whose time an actor reaches, which projects, whose group a manager manages, and what the
 * workspace's plan includes. Services call these; nothing else decides access.
 */

export type { ProjectViewer } from './access.repository.js';

/**
 * Whether a role, or a member's effective permission set (`membership.permissions`, from
 * `effectivePermissions` in packages/core: built-in role, custom role, group roles), grants it.
 */
export function grants(who: Role | ReadonlySet<Permission>, permission: Permission): boolean {
  return typeof who === 'string' ? can(who, permission) : who.has(permission);
}

/** Whether the member may: every check on an actor goes through here (or `assertCan`). */
export const allows = (membership: Pick<MembershipWithWorkspace, 'permissions'>, permission: Permission): boolean =>
  membership.permissions.has(permission);

/** Throws 403 unless the actor's permissions (built-in or custom role) grant the permission. */
export function assertCan(actor: Pick<Actor, 'membership'>, permission: Permission): void {
  if (!allows(actor.membership, permission)) throw forbidden();
}

// ---- whose time

export type TimeAccess = 'view' | 'edit';

export const outOfTimeScope = () =>
  new AppError('forbidden', 'Managers see the time of the people in the groups they manage only.', { status: 403 });

/**
 * Whose time, besides their own, the actor may see and edit: everyone's (null) for owners and
 * admins; a manager's people only, the members of the groups they belong to and those below.
 */
export async function othersTimeScope(db: Db, actor: Actor | MemberAccess): Promise<Set<string> | null> {
  const who = accessOf(actor);
  if (who.role !== 'manager') return null;
  return accessRepository.managedUserIds(db, who.workspaceId, who.userId);
}

/** Whether the actor may see (or, with `edit`, change) time of `userId`. */
export async function reachesTimeOf(db: Db, actor: Actor, userId: string, access: TimeAccess): Promise<boolean> {
  if (userId === actor.userId) return true;
  if (!allows(actor.membership, access === 'view' ? 'time:view_others' : 'time:edit_others')) return false;
  const scope = await othersTimeScope(db, actor);
  return scope === null || scope.has(userId);
}

// ---- locked time

/**
 * Who changes time before the workspace's lock date: whoever may move it (`approvals:settings`;
 * of the built-in roles owners and admins), with a custom role as its permissions say, not as its
 * base role. `timeLockOf` (packages/core) and the lock check of every write of time take this.
 */
export const passesLockDate = (who: Pick<Actor, 'userId' | 'membership'> | MemberAccess): boolean =>
  accessOf(who).permissions.has('approvals:settings');

// ---- whose periods

/** Whose timesheet periods the actor approves (`approvalScope`). */
export interface ApprovalScope {
  /** Everyone's (null) or these people's at most, for a query to start from. */
  userIds: Set<string> | null;
  approves: (userId: string) => boolean;
}

/**
 * Whose periods the actor approves under the workspace's approver rule. It takes `approvals:review`
 * (from a built-in or a custom role); owners and admins, and custom roles on their base, approve
 * everyone's, their own included. Anyone else approves only under `managers_and_admins`, and only
 * the time they may edit (a manager's people; a custom role that edits everyone's time, everyone's),
 * never their own.
 */
export async function approvalScope(db: Db, actor: Actor | MemberAccess, rule: ApproverRule): Promise<ApprovalScope> {
  const who = accessOf(actor);
  const none: ApprovalScope = { userIds: new Set(), approves: () => false };
  if (!who.permissions.has('approvals:review')) return none;
  if (who.role === 'owner' || who.role === 'admin') return { userIds: null, approves: () => true };
  if (rule === 'admins_only' || !who.permissions.has('time:edit_others')) return none;
  const people = await othersTimeScope(db, who);
  return {
    userIds: people,
    approves: (userId) => userId !== who.userId && (people === null || people.has(userId)),
  };
}

// ---- whose money

/**
 * Whose rates and amounts the actor may see: `null` = everyone's, else the user ids (maybe none).
 * Costs and margins are confidential: whoever manages rates (`rates:manage`: owners and admins)
 * sees them all; billable rates and amounts reach those who see others' time (`time:view_others`:
 * managers, for their people) for the time they see, and their own. The workspace's rate settings
 * widen it: those see the costs of that time too, members their own billable rates and amounts.
 * Decided by permissions in force, so a custom role gets what its permissions say, not its base
 * role's. Every report, export and entry presenter asks here, so the API refuses what the web hides.
 */
export interface MoneyAccess {
  billableOf: Set<string> | null;
  costOf: Set<string> | null;
}

export async function moneyAccessOf(db: Db, actor: Actor): Promise<MoneyAccess> {
  // Without billing rates (a Free workspace) stored rates are kept but nobody sees money.
  if (!hasFeature(actor, 'billing_rates')) return { billableOf: new Set(), costOf: new Set() };
  if (allows(actor.membership, 'rates:manage')) return { billableOf: null, costOf: null };
  const settings = await accessRepository.moneySettings(db, actor.membership.workspace.id);
  if (allows(actor.membership, 'time:view_others')) {
    const scope = await othersTimeScope(db, actor);
    const people = scope === null ? null : new Set([...scope, actor.userId]);
    return { billableOf: people, costOf: settings.managersSeeCosts ? people : new Set() };
  }
  return { billableOf: new Set(settings.membersSeeOwnBillable ? [actor.userId] : []), costOf: new Set() };
}

/**
 * What the actor reads of the rates of a level that prices everyone's time (workspace, project,
 * task), given their `moneyAccessOf`: all of it with `rates:manage`; its billable rates for those
 * who see others' time (managers), and its costs when their cost access reaches their own time;
 * nothing for anyone else.
 */
export function levelRatesAccess(actor: Actor, access: MoneyAccess): { billable: boolean; cost: boolean } {
  if (allows(actor.membership, 'rates:manage')) return { billable: true, cost: true };
  if (!allows(actor.membership, 'time:view_others')) return { billable: false, cost: false };
  return { billable: true, cost: seesMoneyOf(access.costOf, actor.userId) };
}

/** Whether `access` (billableOf or costOf of a MoneyAccess) reaches `userId`'s money. */
export const seesMoneyOf = (access: Set<string> | null, userId: string): boolean =>
  access === null || access.has(userId);

// ---- which projects

/**
 * Which projects a person reaches: Managers and above every one; members the public ones and those
 * they are assigned to; guests only those assigned to them (directly, through a group, or on a task).
 */
export function projectViewer(o: {
  workspaceId: string;
  userId: string;
  role: Role | ReadonlySet<Permission>;
}): ProjectViewer {
  return {
    workspaceId: o.workspaceId,
    userId: o.userId,
    seesAll: grants(o.role, 'projects:view_all'),
    seesPublic: grants(o.role, 'projects:view_public'),
  };
}

/** The projects the actor reaches, for queries that list or find projects. */
export const projectViewerOf = ({ membership, userId }: Actor): ProjectViewer =>
  projectViewer({ workspaceId: membership.workspace.id, userId, role: membership.permissions });

/**
 * The one rule for changing a project one can see (its edit-panel sections, its tasks, archiving):
 * projects:manage, or a Member's "Can manage" grant on an assignment to the whole project, held
 * directly or through a group. Deleting it and its people/grants stay with projects:manage.
 */
export function mayEditProject(who: Role | ReadonlySet<Permission>, project: { granted: boolean }): boolean {
  return grants(who, 'projects:manage') || (project.granted && grants(who, 'projects:edit_granted'));
}

/**
 * Whether a member of the workspace (any role, by id; `role`, the one in force, when the caller
 * knows it) reaches the project: may have time on it. Members and guests have time only on
 * projects they can see (members: public or assigned directly or via a group; guests: assigned
 * only).
 */
export async function memberReachesProject(
  db: Db,
  o: {
    workspaceId: string;
    userId: string;
    projectId: string;
    /** The actor's own permissions (`membership.permissions`); others' are read as their built-in role. */
    role?: Role | ReadonlySet<Permission>;
    /**
     * The workspace's features now (the actor's `membership.features`): a stored role read here
     * acts as the plan allows (a Manager on Free reaches what a Member reaches).
     */
    features: readonly Feature[];
    /** The caller has just read the project in this workspace: a role that sees all needs no query. */
    projectExists?: boolean;
  },
): Promise<boolean> {
  let role = o.role;
  if (role === undefined) {
    const stored = await accessRepository.findMemberRole(db, o.workspaceId, o.userId);
    if (!stored) return false;
    role = effectiveRole(stored, o.features);
  }
  const viewer = projectViewer({ workspaceId: o.workspaceId, userId: o.userId, role });
  if (viewer.seesAll && o.projectExists) return true;
  return accessRepository.reachesProject(db, viewer, o.projectId);
}

// ---- who hears of budgets

/**
 * Whether a member hears of a project's budget (budget alerts, in the app and by e-mail): who may
 * change its budget through a "Can manage" grant on the project (`granted`, as `mayEditProject`),
 * and who may change every project's budget and sees all the money a fee budget counts
 * (`projects:manage` with `rates:manage`: owners and admins, not managers, who see their people's
 * money only). By permissions in force, so a custom role hears as its permissions say.
 */
export function hearsOfBudget(who: Pick<MemberAccess, 'permissions'>, project: { granted: boolean }): boolean {
  const has = (p: Permission) => who.permissions.has(p);
  return (has('projects:manage') && has('rates:manage')) || (project.granted && has('projects:edit_granted'));
}

// ---- whose group

/** The groups whose membership the actor may change: null for all (groups:manage). */
export async function managedGroupIds(db: Db, actor: Actor): Promise<Set<string> | null> {
  if (allows(actor.membership, 'groups:manage')) return null;
  if (!allows(actor.membership, 'groups:manage_own')) return new Set();
  return accessRepository.managedGroupIds(db, actor.membership.workspace.id, actor.userId);
}

/**
 * Whether the actor may move `target` into or out of a group they manage: with groups:manage
 * anyone; otherwise themselves, and the roles a manager leads only (`LED_ROLES`: a manager's groups
 * are their reach over others' time, so never the owner, an admin or another manager).
 */
export const movesGroupMember = (actor: Actor, target: { user_id: string; role: Role }): boolean =>
  target.user_id === actor.userId || allows(actor.membership, 'groups:manage') || LED_ROLES.includes(target.role);

/**
 * Owners and admins manage every group; a manager manages the membership of the groups they
 * belong to and of the groups below those. Everyone else gets 403.
 */
export async function assertManagesGroup(db: Db, actor: Actor, groupId: string): Promise<void> {
  const managed = await managedGroupIds(db, actor);
  if (managed === null || managed.has(groupId)) return;
  throw forbidden();
}

// ---- what the plan includes

/**
 * The membership as it acts now: the one place the plan (and the operator's BILLING switch) meets
 * roles. The features the workspace has at `now`, and the role in force: a Manager of a workspace
 * without management roles acts as a Member (the stored role is kept for when it upgrades).
 * Its `permissions` are `effectivePermissions` (packages/core): the role's, or its custom role's,
 * with its groups' custom roles added, while the plan has custom roles.
 * Every membership an actor is built from passes through here (the session authenticator and
 * the workspaces service).
 */
export function entitledMembership(
  stored: StoredMembership,
  mode: BillingMode,
  now: Date = new Date(),
): MembershipWithWorkspace {
  const features = workspaceFeatures(stored.workspace, now, mode);
  const { role, permissions, custom } = inForce(stored, features);
  return {
    ...stored,
    role,
    permissions,
    customRole: custom && { id: custom.id, name: custom.name },
    assignedRole: stored.role,
    billing: mode.billing,
    features,
  };
}

/**
 * The membership acting with `role` at most (a workspace API key's, made by this member): the
 * lower of the two roles, and only the permissions both allow, so a key never exceeds its maker.
 */
export function actingAs(membership: MembershipWithWorkspace, role: Role): MembershipWithWorkspace {
  const lower = ROLES.indexOf(role) > ROLES.indexOf(membership.role) ? role : membership.role;
  const cap = effectivePermissions({ role: effectiveRole(role, membership.features), features: membership.features });
  return {
    ...membership,
    role: effectiveRole(lower, membership.features),
    permissions: new Set([...membership.permissions].filter((permission) => cap.has(permission))),
    customRole: lower === membership.role ? membership.customRole : null,
  };
}

/** The role and permissions in force of a stored role, custom role and group roles under the plan's features. */
function inForce(
  stored: Pick<StoredMembership, 'role' | 'customRole' | 'groupRolePermissions'>,
  features: readonly Feature[],
) {
  const role = effectiveRole(stored.role, features);
  const custom = features.includes('custom_roles') ? (stored.customRole ?? null) : null;
  const permissions = effectivePermissions({
    role,
    own: custom?.permissions,
    groups: stored.groupRolePermissions,
    features,
  });
  return { role, permissions, custom };
}

/** Who a member is to an access rule: their workspace, and their role and permissions in force. */
export interface MemberAccess {
  workspaceId: string;
  userId: string;
  role: Role;
  permissions: ReadonlySet<Permission>;
}

/** The actor as a member (the rules that also judge other members take either). */
const accessOf = (who: Pick<Actor, 'userId' | 'membership'> | MemberAccess): MemberAccess =>
  'membership' in who
    ? {
        workspaceId: who.membership.workspace.id,
        userId: who.userId,
        role: who.membership.role,
        permissions: who.membership.permissions,
      }
    : who;

/**
 * Another member as the rules see them (not the actor: a job, or whom to notify), from their stored
 * role, custom role and group roles (`customRoleColumns`) and the workspace's features now.
 */
export function memberAccess(
  workspaceId: string,
  member: { user_id: string } & Pick<StoredMembership, 'role' | 'customRole' | 'groupRolePermissions'>,
  features: readonly Feature[],
): MemberAccess {
  const { role, permissions } = inForce(member, features);
  return { workspaceId, userId: member.user_id, role, permissions };
}

/** Whether the actor's workspace may use the feature now (resolved by `entitledMembership`). */
export const hasFeature = (actor: Pick<Actor, 'membership'>, feature: Feature): boolean =>
  actor.membership.features.includes(feature);

/** The 403 a locked feature answers: code plan_limit_reached, naming the plan that includes it. */
export const planLimitReached = (feature: Feature) =>
  new AppError('plan_limit_reached', featureLockedMessage(feature), { status: 403 });

/**
 * Throws 403 plan_limit_reached unless the workspace's plan includes the feature. A workspace
 * on trial has every feature, and so has every workspace when billing is off.
 */
export function assertFeature(actor: Pick<Actor, 'membership'>, feature: Feature): void {
  if (!hasFeature(actor, feature)) throw planLimitReached(feature);
}

/** Seats of the workspace: non-guest members, plus non-guest invites that hold a seat, and the limit. */
export async function seatUsage(
  db: Db,
  workspace: Pick<Workspace, 'id' | 'plan' | 'licenses'>,
  mode: BillingMode,
): Promise<{ used: number; limit: number | null; pendingInvites: number }> {
  const used = await accessRepository.countActiveMembers(db, workspace.id);
  const withInvites = await accessRepository.countSeatsUsed(db, workspace.id);
  return { used, limit: seatLimit(workspace, mode), pendingInvites: withInvites - used };
}

/**
 * Inside a transaction: throws 402 seat_limit_reached when the workspace's non-guest members
 * and pending invites exceed its licenses after the changes just made, and grew by them.
 * Locks the workspace row first so two requests cannot both take the last seat. With billing off
 * there is no limit.
 */
export async function assertSeatsAfterChange(
  tx: Db,
  workspaceId: string,
  mode: BillingMode,
  change: () => Promise<void>,
): Promise<void> {
  const workspace = await accessRepository.lockWorkspace(tx, workspaceId);
  const limit = seatLimit(workspace, mode);
  if (limit === null) return change();
  const before = await accessRepository.countSeatsUsed(tx, workspaceId);
  await change();
  const after = await accessRepository.countSeatsUsed(tx, workspaceId);
  if (after > limit && after > before) {
    const message = teamMessages.seatLimit({
      licenses: limit,
      free: Math.max(0, limit - before),
      needed: after - before,
    });
    throw new AppError('seat_limit_reached', message, { status: 402 });
  }
}
