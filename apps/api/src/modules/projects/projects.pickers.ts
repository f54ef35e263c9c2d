import { PICKER_PAGE } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { assertCan } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { presentTask } from './projects.presenter.js';
import { projectsRepository as repo } from './projects.repository.js';
import { present, viewerOf } from './projects.shared.js';

/** What the time-entry form asks of projects: its pickers, and the projects a note's keywords suggest. */
export function createProjectPickers(db: Db) {
  return {
    /**
     * Enable Keyword: the projects (and tasks) whose keywords occur in a time entry's note, as
     * whole words, case-insensitively; tasks first, then projects.
     */
    async suggest(actor: Actor, note: string) {
      assertCan(actor, 'projects:view');
      const words = ` ${note.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
      const hit = (keywords: unknown) =>
        (Array.isArray(keywords) ? (keywords as string[]) : []).find((k) => {
          const needle = k
            .toLowerCase()
            .replace(/[^\p{L}\p{N}]+/gu, ' ')
            .trim();
          return needle !== '' && words.includes(` ${needle} `);
        });
      const { projects, tasks } = await repo.withKeywords(db, viewerOf(actor));
      const names = new Map(projects.map((p) => [p.id, p.name]));
      const items: {
        projectId: string;
        projectName: string;
        taskId: string | null;
        taskName: string | null;
        keyword: string;
      }[] = [];
      for (const t of tasks) {
        const keyword = hit(t.keywords);
        if (keyword) {
          items.push({
            projectId: t.project_id,
            projectName: names.get(t.project_id) ?? '',
            taskId: t.id,
            taskName: t.name,
            keyword,
          });
        }
      }
      for (const p of projects) {
        const keyword = p.keywords_enabled ? hit(p.keywords) : undefined;
        if (keyword) items.push({ projectId: p.id, projectName: p.name, taskId: null, taskName: null, keyword });
      }
      return items;
    },

    /**
     * The time-entry pickers: active projects the actor sees, each with its active tasks, in one
     * answer: the first PICKER_PAGE by name, those matching `search`, or those of `ids`.
     * `complete` says nothing matching was left out.
     */
    async picker(actor: Actor, f: { search?: string; ids?: string[] }) {
      assertCan(actor, 'projects:view');
      const viewer = viewerOf(actor);
      const rows = await repo.pickerList(db, viewer, { ...f, limit: PICKER_PAGE + 1 });
      const shown = rows.slice(0, PICKER_PAGE);
      const tasks = await repo.activeTasksOf(
        db,
        viewer.workspaceId,
        shown.map((r) => r.id),
      );
      const tasksOf = new Map<string, typeof tasks>();
      for (const task of tasks) tasksOf.set(task.project_id, [...(tasksOf.get(task.project_id) ?? []), task]);
      return {
        items: shown.map((row) => {
          const { trackedSeconds: _notRead, taskCount: _notCounted, ...project } = present(actor, row);
          return { ...project, tasks: (tasksOf.get(row.id) ?? []).map(presentTask) };
        }),
        complete: rows.length <= PICKER_PAGE,
      };
    },
  };
}
