import { afterEach, describe, expect, it } from 'vitest';
import { signUp, useTestApp } from '../../test/harness.js';
import type { Db } from '../db/connection.js';
import { createEventBus, type DomainEvent, type EventBus } from './events.js';

const ctx = useTestApp();

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

async function until(check: () => boolean): Promise<void> {
  for (let waited = 0; !check() && waited < 3000; waited += 20) await new Promise((r) => setTimeout(r, 20));
  await settle();
}

let buses: EventBus[] = [];
afterEach(async () => {
  for (const bus of buses) await bus.close();
  buses = [];
});

function bus(): EventBus {
  const b = createEventBus(ctx.t.db);
  buses.push(b);
  return b;
}

const changed = (workspaceId: string, userId: string, entryIds: string[]): DomainEvent => ({
  name: 'time_entry.updated',
  workspaceId,
  actorUserId: userId,
  payload: { userId, entryIds },
});

const auditRows = (workspaceId: string) =>
  ctx.t.db
    .selectFrom('audit_log')
    .select(['action', 'subject_id', 'actor_user_id'])
    .where('workspace_id', '=', workspaceId)
    .where('action', 'like', 'time_entry.%')
    .execute();

describe('the domain-event bus', () => {
  it('delivers an event after its transaction commits, never before and never on rollback', async () => {
    const owner = await signUp(ctx.t.app);
    const events = bus();
    const heard: DomainEvent[] = [];
    await events.subscribe((e) => heard.push(e));
    const written: string[] = [];
    events.onPublish(async (tx: Db, e) => {
      written.push(e.name);
      await tx.selectNoFrom((eb) => eb.lit(1).as('one')).execute();
    });

    const rolledBack = changed(owner.workspaceId, owner.userId, [crypto.randomUUID()]);
    const failure = new Error('rolled back');
    await expect(
      ctx.t.db.transaction().execute(async (tx) => {
        await events.publish(tx, rolledBack);
        throw failure;
      }),
    ).rejects.toBe(failure);
    await settle();
    expect(heard).toEqual([]);
    expect(written).toEqual(['time_entry.updated']);

    const committed = changed(owner.workspaceId, owner.userId, [crypto.randomUUID()]);
    await ctx.t.db.transaction().execute(async (tx) => {
      await events.publish(tx, committed);
      await settle();
      expect(heard).toEqual([]);
    });
    await until(() => heard.length > 0);
    expect(heard).toEqual([committed]);
  });

  it('audits each event in the publishing transaction: kept on commit, gone on rollback', async () => {
    const owner = await signUp(ctx.t.app);
    const [kept, dropped] = [crypto.randomUUID(), crypto.randomUUID()];
    const { events } = ctx.t.app.services;
    await expect(
      ctx.t.db.transaction().execute(async (tx) => {
        await events.publish(tx, changed(owner.workspaceId, owner.userId, [dropped]));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await ctx.t.db.transaction().execute((tx) => events.publish(tx, changed(owner.workspaceId, owner.userId, [kept])));
    expect(await auditRows(owner.workspaceId)).toEqual([
      { action: 'time_entry.updated', subject_id: kept, actor_user_id: owner.userId },
    ]);
  });

  it('delivers a long list of entries whole, in parts that fit a notification', async () => {
    const owner = await signUp(ctx.t.app);
    const events = bus();
    const heard: DomainEvent[] = [];
    await events.subscribe((e) => heard.push(e));
    const ids = Array.from({ length: 250 }, () => crypto.randomUUID());
    await ctx.t.db.transaction().execute((tx) => events.publish(tx, changed(owner.workspaceId, owner.userId, ids)));
    await until(() => heard.flatMap((e) => e.payload.entryIds).length >= ids.length);
    expect(heard).toHaveLength(3);
    expect(heard.flatMap((e) => e.payload.entryIds)).toEqual(ids);
  });

  it('keeps delivering to the other subscribers when one throws, and stops after unsubscribe', async () => {
    const owner = await signUp(ctx.t.app);
    const events = bus();
    const heard: string[] = [];
    await events.subscribe(() => {
      throw new Error('a broken subscriber');
    });
    const unsubscribe = await events.subscribe((e) => heard.push(e.payload.entryIds[0] ?? ''));
    const first = crypto.randomUUID();
    await ctx.t.db.transaction().execute((tx) => events.publish(tx, changed(owner.workspaceId, owner.userId, [first])));
    await until(() => heard.length > 0);
    expect(heard).toEqual([first]);

    unsubscribe();
    await ctx.t.db
      .transaction()
      .execute((tx) => events.publish(tx, changed(owner.workspaceId, owner.userId, [crypto.randomUUID()])));
    await settle();
    expect(heard).toEqual([first]);
  });
});
