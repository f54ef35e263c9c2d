import { type Kysely, sql } from 'kysely';

/** The table of focus.source.ts, as a source's migration would make it. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table focus_spans (
    workspace_id uuid not null references workspaces (id) on delete cascade,
    id uuid not null default gen_random_uuid(),
    user_id uuid not null references users (id),
    started_at timestamptz not null,
    seconds integer not null check (seconds >= 0),
    app text not null,
    focused boolean not null,
    primary key (workspace_id, id)
  )`.execute(db);
  await sql`create index focus_spans_by_start on focus_spans (workspace_id, started_at)`.execute(db);
}
