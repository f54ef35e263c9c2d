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
};
