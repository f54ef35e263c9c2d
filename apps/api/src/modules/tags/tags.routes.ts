import {
  listQuery,
  pageView,
  projectRequiredTagListsBody,
  projectRequiredTagListsView,
  tagCreateBody,
  tagListCreateBody,
  tagListRulesBody,
  tagListUpdateBody,
  tagMergeBody,
  tagSettingsBody,
  tagUpdateBody,
} from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/actor.js';
import { errorResponses, workspaceId, workspaceParams as wsParams } from '../../platform/schemas.js';
import { tagDetailView, tagListView, tagSettingsView, tagView } from './tags.presenter.js';

const tags = ['tags'];
const listParams = z.object({ workspaceId, tagListId: z.uuid({ error: 'Tag list not found.' }) });
const tagParams = z.object({ workspaceId, tagId: z.uuid({ error: 'Tag not found.' }) });
const projectParams = z.object({ workspaceId, projectId: z.uuid({ error: 'Project not found.' }) });
const base = '/workspaces/:workspaceId';
const page = { total: z.number().int(), limit: z.number(), offset: z.number() };
const noContent = { 204: z.null(), ...errorResponses };

export const tagsRoutes: FastifyPluginAsyncZod = async (app) => {
  const svc = app.services.tags;

  app.get(
    `${base}/tag-lists`,
    {
      schema: {
        tags,
        summary: 'Tag lists with their tags, paginated',
        params: wsParams,
        querystring: listQuery.pick({ archived: true, limit: true, offset: true }),
        response: { 200: z.object({ items: z.array(tagListView), ...page }), ...errorResponses },
      },
    },
    async (request) => ({
      ...(await svc.lists(actorOf(request), request.query)),
      limit: request.query.limit,
      offset: request.query.offset,
    }),
  );

  app.post(
    `${base}/tag-lists`,
    {
      schema: {
        tags,
        summary: 'Add a tag list',
        params: wsParams,
        body: tagListCreateBody,
        response: { 201: tagListView, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await svc.createList(actorOf(request), request.body.name)),
  );

  app.get(
    `${base}/tag-lists/:tagListId`,
    {
      schema: { tags, summary: 'One tag list', params: listParams, response: { 200: tagListView, ...errorResponses } },
    },
    async (request) => svc.getList(actorOf(request), request.params.tagListId),
  );

  app.patch(
    `${base}/tag-lists/:tagListId`,
    {
      schema: {
        tags,
        summary: 'Rename a tag list',
        params: listParams,
        body: tagListUpdateBody,
        response: { 200: tagListView, ...errorResponses },
      },
    },
    async (request) => svc.updateList(actorOf(request), request.params.tagListId, request.body),
  );

  for (const [verb, archived] of [
    ['archive', true],
    ['restore', false],
  ] as const) {
    app.post(
      `${base}/tag-lists/:tagListId/${verb}`,
      {
        schema: {
          tags,
          summary: `${verb === 'archive' ? 'Archive' : 'Restore'} a tag list`,
          params: listParams,
          response: { 200: tagListView, ...errorResponses },
        },
      },
      async (request) => svc.updateList(actorOf(request), request.params.tagListId, { archived }),
    );
    app.post(
      `${base}/tags/:tagId/${verb}`,
      {
        schema: {
          tags,
          summary: `${verb === 'archive' ? 'Archive' : 'Restore'} a tag`,
          params: tagParams,
          response: { 200: tagView, ...errorResponses },
        },
      },
      async (request) => svc.updateTag(actorOf(request), request.params.tagId, { archived }),
    );
  }

  app.delete(
    `${base}/tag-lists/:tagListId`,
    { schema: { tags, summary: 'Delete a tag list with its tags', params: listParams, response: noContent } },
    async (request, reply) => {
      await svc.removeList(actorOf(request), request.params.tagListId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    `${base}/tag-lists/:tagListId/tags`,
    {
      schema: {
        tags,
        summary: 'Add a tag to a list',
        params: listParams,
        body: tagCreateBody,
        response: { 201: tagView, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await svc.createTag(actorOf(request), request.params.tagListId, request.body.name)),
  );

  app.get(
    `${base}/tags`,
    {
      schema: {
        tags,
        summary: 'Tags of every list: search, filter archived, paginate (for time entries)',
        params: wsParams,
        querystring: listQuery.pick({ search: true, archived: true, limit: true, offset: true, cursor: true }),
        response: { 200: pageView(tagView), ...errorResponses },
      },
    },
    async (request) => ({
      ...(await svc.tags(actorOf(request), request.query)),
      limit: request.query.limit,
      offset: request.query.offset,
    }),
  );

  app.get(
    `${base}/tags/:tagId`,
    {
      schema: {
        tags,
        summary: 'One tag, with how many time entries carry it (for those who may manage tags)',
        params: tagParams,
        response: { 200: tagDetailView, ...errorResponses },
      },
    },
    async (request) => svc.getTag(actorOf(request), request.params.tagId),
  );

  app.patch(
    `${base}/tags/:tagId`,
    {
      schema: {
        tags,
        summary: 'Rename a tag or move it to another list',
        params: tagParams,
        body: tagUpdateBody,
        response: { 200: tagView, ...errorResponses },
      },
    },
    async (request) => svc.updateTag(actorOf(request), request.params.tagId, request.body),
  );

  app.delete(
    `${base}/tags/:tagId`,
    {
      schema: {
        tags,
        summary: 'Delete a tag (it leaves the time entries that had it)',
        params: tagParams,
        response: noContent,
      },
    },
    async (request, reply) => {
      await svc.removeTag(actorOf(request), request.params.tagId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    `${base}/tags/:tagId/merge`,
    {
      schema: {
        tags,
        summary: 'Merge this tag into another: its time entries get the other tag, then it is deleted',
        params: tagParams,
        body: tagMergeBody,
        response: { 200: tagView, ...errorResponses },
      },
    },
    async (request) => svc.merge(actorOf(request), request.params.tagId, request.body.intoTagId),
  );

  app.put(
    `${base}/tag-lists/:tagListId/rules`,
    {
      schema: {
        tags,
        summary: 'Set the advanced-tags rules of a list: pick one, restricted to projects, required on projects',
        params: listParams,
        body: tagListRulesBody,
        response: { 200: tagListView, ...errorResponses },
      },
    },
    async (request) => svc.setRules(actorOf(request), request.params.tagListId, request.body),
  );

  app.put(
    `${base}/projects/:projectId/required-tag-lists`,
    {
      schema: {
        tags,
        summary: 'Set the tag lists a project requires (a tag of each on every entry)',
        params: projectParams,
        body: projectRequiredTagListsBody,
        response: { 200: projectRequiredTagListsView, ...errorResponses },
      },
    },
    async (request) => svc.setRequiredLists(actorOf(request), request.params.projectId, request.body.tagListIds),
  );

  app.get(
    `${base}/tag-settings`,
    {
      schema: {
        tags,
        summary: 'Tag options of the workspace',
        params: wsParams,
        response: { 200: tagSettingsView, ...errorResponses },
      },
    },
    async (request) => svc.settings(actorOf(request)),
  );

  app.put(
    `${base}/tag-settings`,
    {
      schema: {
        tags,
        summary: 'Save Setting: whether time entries need a tag',
        params: wsParams,
        body: tagSettingsBody,
        response: { 200: tagSettingsView, ...errorResponses },
      },
    },
    async (request) => svc.saveSettings(actorOf(request), request.body.tagsRequired),
  );
};
