import type { ClientCreateBody, ClientUpdateBody } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { assertCan } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit, changesOf } from '../../platform/audit.js';
import { type ConstraintTable, mapConstraints, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { type ClientView, presentClient } from './clients.presenter.js';
import { type ClientListFilter, clientsRepository as repo } from './clients.repository.js';

const CLIENT_TAKEN = 'A client with this name already exists.';
const CLIENT_CONSTRAINTS: ConstraintTable = { clients_name_key: { message: CLIENT_TAKEN, field: 'name' } };

const emptyToNull = (s: string | null | undefined) => (s === undefined ? undefined : s?.trim() ? s.trim() : null);

/** The clients table's operations for other modules, inside the caller's transaction. */
export const clientRecords = {
  /** The clients an import creates (ids chosen by its plan). */
  insertImported: (tx: Db, workspaceId: string, clients: readonly { id: string; name: string }[]): Promise<void> =>
    repo.insertImported(tx, workspaceId, clients),
};

export function createClientsService(db: Db) {
  async function load(dbOrTx: Db, actor: Actor, id: string): Promise<ClientView> {
    const row = await repo.find(dbOrTx, actor.membership.workspace.id, id);
    if (!row) throw notFound('Client not found.');
    return presentClient(row);
  }

  return {
    async list(actor: Actor, filter: ClientListFilter) {
      assertCan(actor, 'clients:view');
      const { rows, total, nextCursor } = await repo.list(db, actor.membership.workspace.id, filter);
      return { items: rows.map(presentClient), total, nextCursor };
    },

    get(actor: Actor, id: string) {
      assertCan(actor, 'clients:view');
      return load(db, actor, id);
    },

    async create(actor: Actor, body: ClientCreateBody) {
      assertCan(actor, 'clients:manage');
      const workspaceId = actor.membership.workspace.id;
      const id = newId();
      return db.transaction().execute(async (tx) => {
        await mapConstraints(CLIENT_CONSTRAINTS, () =>
          repo.insert(tx, {
            id,
            workspace_id: workspaceId,
            name: body.name.trim(),
            address: emptyToNull(body.address) ?? null,
            currency: body.currency ?? null,
            note: emptyToNull(body.note) ?? null,
          }),
        );
        await audit(tx, { action: 'client.created', actorUserId: actor.userId, workspaceId, subjectId: id });
        return load(tx, actor, id);
      });
    },

    async update(actor: Actor, id: string, body: ClientUpdateBody) {
      assertCan(actor, 'clients:view');
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) => {
        const before = await repo.find(tx, workspaceId, id);
        if (!before) throw notFound('Client not found.');
        assertCan(actor, 'clients:manage');
        const values = {
          ...(body.name !== undefined ? { name: body.name.trim() } : {}),
          ...(body.address !== undefined ? { address: emptyToNull(body.address) } : {}),
          ...(body.currency !== undefined ? { currency: body.currency } : {}),
          ...(body.note !== undefined ? { note: emptyToNull(body.note) } : {}),
        };
        await mapConstraints(CLIENT_CONSTRAINTS, () => repo.update(tx, workspaceId, id, values));
        await audit(tx, {
          action: 'client.updated',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: id,
          detail: { name: before.name, changes: changesOf(before, values) },
        });
        return load(tx, actor, id);
      });
    },

    async setArchived(actor: Actor, id: string, archived: boolean) {
      assertCan(actor, 'clients:view');
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) => {
        await load(tx, actor, id);
        assertCan(actor, 'clients:manage');
        await repo.update(tx, workspaceId, id, { archived_at: archived ? new Date() : null });
        const action = archived ? 'client.archived' : 'client.restored';
        await audit(tx, { action, actorUserId: actor.userId, workspaceId, subjectId: id });
        return load(tx, actor, id);
      });
    },

    /** Deletes the client; its projects stay, without a client. */
    async remove(actor: Actor, id: string): Promise<void> {
      assertCan(actor, 'clients:view');
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        const client = await load(tx, actor, id);
        assertCan(actor, 'clients:manage');
        // Its projects lose their client; two of them may then clash with a same-named project.
        const clash = `A project of “${client.name}” has the same name as a project without a client; rename one of them first.`;
        const invoiced = `“${client.name}” has invoices, which keep their client: archive it instead.`;
        await mapConstraints(
          {
            projects_sibling_name_key: { message: clash },
            client_invoices_workspace_id_client_id_fkey: {
              message: invoiced,
              code: 'client_has_invoices',
              status: 409,
            },
          },
          () => repo.delete(tx, workspaceId, id),
        );
        await audit(tx, {
          action: 'client.deleted',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: id,
          detail: { name: client.name },
        });
      });
    },
  };
}

export type ClientsService = ReturnType<typeof createClientsService>;
