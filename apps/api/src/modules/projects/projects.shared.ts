import type { ProjectUpdateBody } from '@sundial/core';
import { BUDGET_ALERT_PERCENTS } from '@sundial/core';
import type { z } from 'zod';
import type { Db } from '../../db/connection.js';
import { assertFeature, mayEditProject, projectViewerOf } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { forbidden, notFound } from '../../platform/errors.js';
import {
  presentProject,
  presentTask,
  type projectDetailView,
  type projectListItemView,
  type taskDetailView,
} from './projects.presenter.js';
import { type ProjectRow, projectsRepository as repo, type SectionValues } from './projects.repository.js';

/**
 * What the parts of the projects service share: the projects and tasks the actor sees or may edit,
 * their detail views, and the edit-panel sections projects and tasks both have.
 */

export const viewerOf = projectViewerOf;

export type ProjectDetail = z.infer<typeof projectDetailView>;
export type ProjectListItem = z.infer<typeof projectListItemView>;
export type TaskDetail = z.infer<typeof taskDetailView>;

export type Sections = Pick<
  ProjectUpdateBody,
  'description' | 'budget' | 'billableDefault' | 'keywordsEnabled' | 'keywords'
>;

/** The edit-panel sections of a body, as columns; only what the body carries. */
export function sectionValues(body: Sections): SectionValues {
  const v: SectionValues = {};
  if (body.description !== undefined) v.description = body.description?.trim() ? body.description : null;
  if (body.budget !== undefined) {
    v.budget_type = body.budget?.type ?? null;
    v.budget_amount = body.budget?.amount ?? null;
    v.budget_resets_monthly = body.budget?.resetsMonthly ?? false;
    // Left out, a budget keeps its thresholds; taking the budget off puts back the default for the next one.
    if (body.budget?.alertPercents) v.budget_alert_percents = body.budget.alertPercents;
    else if (body.budget === null) v.budget_alert_percents = [...BUDGET_ALERT_PERCENTS];
  }
  if (body.billableDefault !== undefined) v.billable_default = body.billableDefault;
  if (body.keywordsEnabled !== undefined) v.keywords_enabled = body.keywordsEnabled;
  if (body.keywords !== undefined) v.keywords = JSON.stringify([...new Set(body.keywords)]);
  return v;
}

/** Setting a budget needs budgeting (Basic); taking one off, and every other section, does not. */
export function assertBudgetOnPlan(actor: Actor, body: Pick<Sections, 'budget'>): void {
  if (body.budget) assertFeature(actor, 'budgets');
}

export async function loadProject(dbOrTx: Db, actor: Actor, id: string) {
  const row = await repo.find(dbOrTx, viewerOf(actor), id);
  if (!row) throw notFound('Project not found.');
  return row;
}

/** A visible project the actor may edit (404 when invisible, 403 when only visible). */
export async function loadEditable(dbOrTx: Db, actor: Actor, id: string) {
  const row = await loadProject(dbOrTx, actor, id);
  if (!mayEditProject(actor.membership.permissions, row)) throw forbidden();
  return row;
}

export const present = (actor: Actor, row: ProjectRow) =>
  presentProject(row, mayEditProject(actor.membership.permissions, row));

export async function loadTask(dbOrTx: Db, actor: Actor, id: string) {
  const task = await repo.findTask(dbOrTx, actor.membership.workspace.id, id);
  // A task is visible exactly when its project is.
  if (!task || !(await repo.find(dbOrTx, viewerOf(actor), task.project_id))) throw notFound('Task not found.');
  return task;
}

export async function detail(tx: Db, actor: Actor, id: string): Promise<ProjectDetail> {
  const row = await loadProject(tx, actor, id);
  const people = await repo.members(tx, actor.membership.workspace.id, id, null);
  return { ...present(actor, row), people };
}

export async function taskDetail(tx: Db, actor: Actor, id: string): Promise<TaskDetail> {
  const task = await loadTask(tx, actor, id);
  const people = await repo.members(tx, actor.membership.workspace.id, task.project_id, id);
  return { ...presentTask(task), people };
}
