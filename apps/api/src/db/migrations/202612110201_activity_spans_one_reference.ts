import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Computer time's ingest (issue 35's bench): each span referenced its workspace, its person and its
 * device, three foreign-key checks a row (a third of the database's time of an upload of 1,000
 * spans). The device already belongs to one person in one workspace, so one reference to the
 * device with both says the same and a little more: a span's workspace and person are its
 * device's. Deleting a workspace or a person still takes their spans, through their devices. The
 * reference is checked on the rows already stored without blocking uploads (`not valid`, then
 * `validate`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    alter table agent_devices add constraint agent_devices_owner_key unique (id, workspace_id, user_id);
    alter table activity_spans
      drop constraint activity_spans_workspace_id_fkey,
      drop constraint activity_spans_user_id_fkey,
      drop constraint activity_spans_device_id_fkey,
      add constraint activity_spans_device_fkey foreign key (device_id, workspace_id, user_id)
        references agent_devices (id, workspace_id, user_id) on delete cascade not valid;
    alter table activity_spans validate constraint activity_spans_device_fkey;
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    alter table activity_spans
      drop constraint activity_spans_device_fkey,
      add constraint activity_spans_workspace_id_fkey foreign key (workspace_id) references workspaces (id) on delete cascade,
      add constraint activity_spans_user_id_fkey foreign key (user_id) references users (id) on delete cascade,
      add constraint activity_spans_device_id_fkey foreign key (device_id) references agent_devices (id) on delete cascade;
    alter table agent_devices drop constraint agent_devices_owner_key;
    `,
  );
}
