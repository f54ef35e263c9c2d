import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import type { DemoRequestsTable } from '../../db/tables/demo-requests.js';

type NewDemoRequest = Omit<DemoRequestsTable, 'created_at'>;

export const demoRequestsRepository = {
  async insert(db: Db, request: NewDemoRequest): Promise<void> {
    await db
      .insertInto('demo_requests')
      .values({
        id: request.id,
        name: request.name,
        email: request.email,
        company: request.company,
        team_size: request.team_size,
        message: request.message,
        ip: request.ip,
        user_agent: request.user_agent,
      })
      .execute();
  },

  /** Serialises demo requests from one address until the transaction ends. */
  async lockIp(db: Db, ip: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtext(${`demo-request:${ip}`}))`.execute(db);
  },

  async countFromIpSince(db: Db, ip: string, since: Date): Promise<number> {
    const row = await db
      .selectFrom('demo_requests')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('ip', '=', ip)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },
};
