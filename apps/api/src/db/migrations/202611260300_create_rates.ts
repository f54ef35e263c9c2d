import { type Kysely, sql } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Hourly rates (issue 14): billable and cost, integer cents, at five levels (workspace, member,
 * project, project member, task), each with its history by effective-from date; and each
 * workspace's rate settings (currency, who beside owners and admins sees money).
 *
 * A row is never rewritten: a new rate is a new row with a later `effective_from`. The row of a
 * level in force on a day is its latest one on or before that day; a null billable or cost there
 * means "this level does not set it", and the next level down decides.
 *
 * `rate_in_force(kind, workspace, user, project, task, at)` is the one resolution, used inside the
 * statements that save entries (so copying a rate costs no extra round trip) and by re-apply: the
 * most specific level that sets the kind wins (task > project member > project > member >
 * workspace). `effective_from` is a calendar day compared with the entry's start as a date in the
 * entry owner's time zone (users.time_zone).
 */
const NIL = `'00000000-0000-0000-0000-000000000000'::uuid`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table rate_settings (
      workspace_id uuid primary key references workspaces (id) on delete cascade,
      currency text not null default 'USD' check (currency ~ '^[A-Z]{3}$'),
      managers_see_costs boolean not null default false,
      members_see_own_billable boolean not null default false,
      updated_at timestamptz not null default now()
    );

    create table rates (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      level text not null check (level in ('workspace', 'member', 'project', 'project_member', 'task')),
      user_id uuid,
      project_id uuid,
      task_id uuid,
      effective_from date not null,
      billable_cents integer check (billable_cents >= 0),
      cost_cents integer check (cost_cents >= 0),
      created_by_user_id uuid,
      created_at timestamptz not null default now(),
      unique (workspace_id, id),
      constraint rates_sets_something check (billable_cents is not null or cost_cents is not null),
      constraint rates_level_target check (case level
        when 'workspace' then user_id is null and project_id is null and task_id is null
        when 'member' then user_id is not null and project_id is null and task_id is null
        when 'project' then user_id is null and project_id is not null and task_id is null
        when 'project_member' then user_id is not null and project_id is not null and task_id is null
        else user_id is null and project_id is not null and task_id is not null end),
      foreign key (workspace_id, user_id) references memberships (workspace_id, user_id) on delete cascade,
      foreign key (workspace_id, project_id) references projects (workspace_id, id) on delete cascade,
      foreign key (workspace_id, project_id, task_id) references tasks (workspace_id, project_id, id)
        on delete cascade on update cascade
    );
    create unique index rates_key on rates (
      workspace_id, level, coalesce(user_id, ${NIL}), coalesce(project_id, ${NIL}),
      coalesce(task_id, ${NIL}), effective_from
    );
    `,
  );
  // A function body holds semicolons, so it goes as one statement (runSql splits on them).
  await sql
    .raw(`
    create function rate_in_force(p_kind text, p_workspace uuid, p_user uuid, p_project uuid, p_task uuid,
      p_at timestamptz) returns integer language sql stable as $$
      select case when p_kind = 'billable' then r.billable_cents else r.cost_cents end
      from (
        select distinct on (r.level) r.level, r.billable_cents, r.cost_cents
        from rates r
        where r.workspace_id = p_workspace
          and r.effective_from <= (p_at at time zone coalesce(
            (select u.time_zone from users u where u.id = p_user), 'UTC'))::date
          and (r.level = 'workspace'
            or (r.level = 'member' and r.user_id = p_user)
            or (r.level = 'project' and r.project_id = p_project)
            or (r.level = 'project_member' and r.project_id = p_project and r.user_id = p_user)
            or (r.level = 'task' and r.task_id = p_task))
        order by r.level, r.effective_from desc
      ) r
      where (case when p_kind = 'billable' then r.billable_cents else r.cost_cents end) is not null
      order by case r.level when 'task' then 1 when 'project_member' then 2 when 'project' then 3
        when 'member' then 4 else 5 end
      limit 1
    $$`)
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `drop function if exists rate_in_force(text, uuid, uuid, uuid, uuid, timestamptz);
     drop table if exists rates;
     drop table if exists rate_settings;`,
  );
}
