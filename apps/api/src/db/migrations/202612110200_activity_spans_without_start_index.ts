import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Computer time's ingest (issue 35's bench): `activity_spans_start (started_at)` served only the
 * daily retention, and every span uploaded paid for it. Retention now deletes person by person
 * through `activity_spans_person_start (workspace_id, user_id, started_at)`, one index range each,
 * so the table keeps its primary key, that index and the device's (which a device's deletion needs).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'drop index activity_spans_start;');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'create index activity_spans_start on activity_spans (started_at);');
}
