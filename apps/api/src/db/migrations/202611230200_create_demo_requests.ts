import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table demo_requests (
      id uuid primary key,
      name text not null,
      email text not null,
      company text not null,
      team_size text not null check (team_size in ('1-10', '11-50', '51-200', '201-1000', '1000+')),
      message text not null default '',
      ip text not null,
      user_agent text,
      created_at timestamptz not null default now()
    );
    create index demo_requests_ip_idx on demo_requests (ip, created_at);
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'drop table demo_requests;');
}
