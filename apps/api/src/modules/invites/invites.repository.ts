import type { Db } from '../../db/connection.js';
import type { Invite, InvitesTable } from '../../db/tables/team.js';

export interface InviteWithWorkspace extends Invite {
  workspace_name: string;
  inviter_email: string | null;
  inviter_name: string | null;
}

/** The workspace's invites not yet accepted nor revoked (expired ones included). */
function pendingInvites(db: Db, workspaceId: string) {
  return db
    .selectFrom('invites')
    .where('workspace_id', '=', workspaceId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null);
}

export const invitesRepository = {
  /** Invites not yet accepted nor revoked (expired ones included), newest first. */
  listPending(db: Db, workspaceId: string): Promise<Invite[]> {
    return pendingInvites(db, workspaceId).selectAll().orderBy('created_at', 'desc').orderBy('id').execute();
  },

  find(db: Db, workspaceId: string, id: string): Promise<Invite | undefined> {
    return db
      .selectFrom('invites')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  findPendingByEmail(db: Db, workspaceId: string, email: string): Promise<Invite | undefined> {
    return pendingInvites(db, workspaceId)
      .selectAll()
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .executeTakeFirst();
  },

  /** The invite behind a link, with its workspace name and inviter; locked when asked. */
  async findByTokenHash(db: Db, tokenHash: string, options: { lock?: boolean } = {}) {
    let query = db
      .selectFrom('invites as i')
      .innerJoin('workspaces as w', 'w.id', 'i.workspace_id')
      .leftJoin('users as u', 'u.id', 'i.invited_by_user_id')
      .selectAll('i')
      .select(['w.name as workspace_name', 'u.email as inviter_email', 'u.name as inviter_name'])
      .where('i.token_hash', '=', tokenHash);
    if (options.lock) query = query.forUpdate('i');
    return (await query.executeTakeFirst()) as InviteWithWorkspace | undefined;
  },

  insert(
    db: Db,
    invite: Pick<
      InvitesTable,
      'id' | 'workspace_id' | 'email' | 'role' | 'group_id' | 'token_hash' | 'invited_by_user_id' | 'expires_at'
    >,
  ): Promise<Invite> {
    return db.insertInto('invites').values(invite).returningAll().executeTakeFirstOrThrow();
  },

  /** A fresh link for a pending invite: the old link stops working. */
  renew(
    db: Db,
    workspaceId: string,
    id: string,
    changes: {
      token_hash: string;
      expires_at: Date;
      role?: Invite['role'];
      group_id?: string | null;
      invited_by_user_id: string | null;
    },
  ): Promise<Invite> {
    return db
      .updateTable('invites')
      .set((eb) => ({ ...changes, sent_at: new Date(), send_count: eb('send_count', '+', 1) }))
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  /** A new link and expiry without a new e-mail: the send count and time stay as they were. */
  replaceToken(
    db: Db,
    workspaceId: string,
    id: string,
    changes: { token_hash: string; expires_at: Date },
  ): Promise<Invite> {
    return db
      .updateTable('invites')
      .set(changes)
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  async revoke(db: Db, workspaceId: string, id: string): Promise<void> {
    await db
      .updateTable('invites')
      .set({ revoked_at: new Date() })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  async markAccepted(db: Db, id: string, userId: string): Promise<void> {
    await db
      .updateTable('invites')
      .set({ accepted_at: new Date(), accepted_user_id: userId })
      .where('id', '=', id)
      .execute();
  },

  /** Invitation e-mails a workspace sent (first sends and resends) since a moment. */
  async countMailsSince(db: Db, workspaceId: string, since: Date): Promise<number> {
    const row = await db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .where('action', 'in', ['invite.sent', 'invite.resent'])
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },
};
