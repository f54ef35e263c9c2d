import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Advanced tags (Pro): a tag list may be exclusive (an entry carries at most one of its tags),
 * restricted to some projects (its tags are refused elsewhere; no row means every project), and
 * required on projects (a stopped entry of such a project carries at least one of its tags).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    alter table tag_lists add column exclusive boolean not null default false;
    create table tag_list_projects (
      workspace_id uuid not null,
      tag_list_id uuid not null,
      project_id uuid not null,
      primary key (tag_list_id, project_id),
      foreign key (workspace_id, tag_list_id) references tag_lists (workspace_id, id) on delete cascade,
      foreign key (workspace_id, project_id) references projects (workspace_id, id) on delete cascade
    );
    create index tag_list_projects_project_idx on tag_list_projects (project_id);
    create table project_required_tag_lists (
      workspace_id uuid not null,
      project_id uuid not null,
      tag_list_id uuid not null,
      primary key (project_id, tag_list_id),
      foreign key (workspace_id, tag_list_id) references tag_lists (workspace_id, id) on delete cascade,
      foreign key (workspace_id, project_id) references projects (workspace_id, id) on delete cascade
    );
    create index project_required_tag_lists_list_idx on project_required_tag_lists (tag_list_id);
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop table project_required_tag_lists;
    drop table tag_list_projects;
    alter table tag_lists drop column exclusive;
    `,
  );
}
