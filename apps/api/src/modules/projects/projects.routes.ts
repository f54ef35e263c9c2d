import {
  membersBody,
  pageView,
  projectCreateBody,
  projectListQuery,
  projectPeopleBody,
  projectPickerQuery,
  projectPickerView,
  projectSuggestionView,
  projectUpdateBody,
  taskCreateBody,
  taskListQuery,
  taskUpdateBody,
  text,
} from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/actor.js';
import { idempotencyKeyOf } from '../../platform/idempotency.js';
import { errorResponses, workspaceId, workspaceParams as wsParams } from '../../platform/schemas.js';
import {
  assignableView,
  projectDetailView,
  projectListItemView,
  taskDetailView,
  taskView,
} from './projects.presenter.js';

const tags = ['projects'];
const projectParams = z.object({ workspaceId, projectId: z.uuid({ error: 'Project not found.' }) });
const taskParams = z.object({ workspaceId, taskId: z.uuid({ error: 'Task not found.' }) });

const base = '/workspaces/:workspaceId';

export const projectsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { projects } = app.services;

  app.get(
    `${base}/projects`,
    {
      schema: {
        tags,
        summary: 'Projects the caller may see: search (project or task name), filter, sort, paginate',
        params: wsParams,
        querystring: projectListQuery,
        response: {
          200: pageView(projectListItemView),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const q = request.query;
      const result = await projects.list(actorOf(request), q);
      return { ...result, limit: q.limit, offset: q.offset };
    },
  );

  app.post(
    `${base}/projects`,
    {
      schema: {
        tags,
        summary: 'Create a project (Admins and Managers); honours Idempotency-Key',
        params: wsParams,
        body: projectCreateBody,
        response: { 201: projectDetailView, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await projects.create(actorOf(request), request.body, idempotencyKeyOf(request))),
  );

  app.get(
    `${base}/projects/:projectId`,
    {
      schema: {
        tags,
        summary: 'One project with its people',
        params: projectParams,
        response: { 200: projectDetailView, ...errorResponses },
      },
    },
    async (request) => projects.get(actorOf(request), request.params.projectId),
  );

  app.patch(
    `${base}/projects/:projectId`,
    {
      schema: {
        tags,
        summary: 'Edit a project: name, client (Move), colour, description, budget, billable default, keywords',
        params: projectParams,
        body: projectUpdateBody,
        response: { 200: projectDetailView, ...errorResponses },
      },
    },
    async (request) => projects.update(actorOf(request), request.params.projectId, request.body),
  );

  app.post(
    `${base}/projects/:projectId/archive`,
    {
      schema: {
        tags,
        summary: 'Archive a project (hidden, not deleted)',
        params: projectParams,
        response: { 200: projectDetailView, ...errorResponses },
      },
    },
    async (request) => projects.setArchived(actorOf(request), request.params.projectId, true),
  );

  app.post(
    `${base}/projects/:projectId/restore`,
    {
      schema: {
        tags,
        summary: 'Restore an archived project',
        params: projectParams,
        response: { 200: projectDetailView, ...errorResponses },
      },
    },
    async (request) => projects.setArchived(actorOf(request), request.params.projectId, false),
  );

  app.delete(
    `${base}/projects/:projectId`,
    {
      schema: {
        tags,
        summary: 'Delete a project with its tasks and their time entries (permanent)',
        params: projectParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await projects.remove(actorOf(request), request.params.projectId);
      return reply.status(204).send(null);
    },
  );

  app.put(
    `${base}/projects/:projectId/people`,
    {
      schema: {
        tags,
        summary: 'Replace the users and groups assigned to a project, and their "Can manage" grants',
        params: projectParams,
        body: projectPeopleBody,
        response: { 200: projectDetailView, ...errorResponses },
      },
    },
    async (request) => projects.setPeople(actorOf(request), request.params.projectId, request.body),
  );

  app.get(
    `${base}/project-assignees`,
    {
      schema: {
        tags,
        summary: 'Members and groups that can be assigned to projects and tasks',
        params: wsParams,
        response: { 200: assignableView, ...errorResponses },
      },
    },
    async (request) => projects.assignable(actorOf(request)),
  );

  app.get(
    `${base}/project-suggestions`,
    {
      schema: {
        tags,
        summary: 'Enable Keyword: projects and tasks whose keywords occur in a time entry note',
        params: wsParams,
        querystring: z.object({ note: text({ max: 5000 }) }),
        response: {
          200: z.object({ items: z.array(projectSuggestionView) }),
          ...errorResponses,
        },
      },
    },
    async (request) => ({ items: await projects.suggest(actorOf(request), request.query.note) }),
  );

  app.get(
    `${base}/project-picker`,
    {
      schema: {
        tags,
        summary:
          'Active projects the caller sees, each with its active tasks (the time-entry pickers): the first 300 by name, those matching search, or those of ids',
        params: wsParams,
        querystring: projectPickerQuery,
        response: { 200: projectPickerView, ...errorResponses },
      },
    },
    async (request) => projects.picker(actorOf(request), request.query),
  );

  // ---- tasks

  app.get(
    `${base}/projects/:projectId/tasks`,
    {
      schema: {
        tags,
        summary: 'Tasks of a project, flat; parentTaskId links sub-tasks',
        params: projectParams,
        querystring: taskListQuery,
        response: { 200: z.object({ items: z.array(taskView) }), ...errorResponses },
      },
    },
    async (request) => ({ items: await projects.listTasks(actorOf(request), request.params.projectId, request.query) }),
  );

  app.post(
    `${base}/projects/:projectId/tasks`,
    {
      schema: {
        tags,
        summary: 'Add a task (or a sub-task with parentTaskId)',
        params: projectParams,
        body: taskCreateBody,
        response: { 201: taskDetailView, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await projects.createTask(actorOf(request), request.params.projectId, request.body)),
  );

  app.get(
    `${base}/tasks/:taskId`,
    {
      schema: {
        tags,
        summary: 'One task with its people',
        params: taskParams,
        response: { 200: taskDetailView, ...errorResponses },
      },
    },
    async (request) => projects.getTask(actorOf(request), request.params.taskId),
  );

  app.patch(
    `${base}/tasks/:taskId`,
    {
      schema: {
        tags,
        summary: 'Edit a task; projectId / parentTaskId move it with its sub-tasks',
        params: taskParams,
        body: taskUpdateBody,
        response: { 200: taskDetailView, ...errorResponses },
      },
    },
    async (request) => projects.updateTask(actorOf(request), request.params.taskId, request.body),
  );

  app.post(
    `${base}/tasks/:taskId/archive`,
    {
      schema: {
        tags,
        summary: 'Archive a task',
        params: taskParams,
        response: { 200: taskDetailView, ...errorResponses },
      },
    },
    async (request) => projects.setTaskArchived(actorOf(request), request.params.taskId, true),
  );

  app.post(
    `${base}/tasks/:taskId/restore`,
    {
      schema: {
        tags,
        summary: 'Restore a task',
        params: taskParams,
        response: { 200: taskDetailView, ...errorResponses },
      },
    },
    async (request) => projects.setTaskArchived(actorOf(request), request.params.taskId, false),
  );

  app.delete(
    `${base}/tasks/:taskId`,
    {
      schema: {
        tags,
        summary: 'Delete a task with its sub-tasks',
        params: taskParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await projects.removeTask(actorOf(request), request.params.taskId);
      return reply.status(204).send(null);
    },
  );

  app.put(
    `${base}/tasks/:taskId/people`,
    {
      schema: {
        tags,
        summary: 'Replace the users and groups assigned to a task',
        params: taskParams,
        body: membersBody,
        response: { 200: taskDetailView, ...errorResponses },
      },
    },
    async (request) => projects.setTaskPeople(actorOf(request), request.params.taskId, request.body),
  );
};
