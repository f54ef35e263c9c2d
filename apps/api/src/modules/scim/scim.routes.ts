import { workspaceHasFeature } from '@sundial/core';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/actor.js';
import { AppError } from '../../platform/errors.js';
import { errorResponses, workspaceParams } from '../../platform/schemas.js';
import { pageOf, parseFilter, SCHEMA, SCIM_CONTENT_TYPE, ScimError, scimErrorBody } from './scim.protocol.js';
import type { ScimCaller } from './scim.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    scim?: ScimCaller;
  }
}

const send = (reply: FastifyReply, status: number, body: unknown) =>
  reply.status(status).type(SCIM_CONTENT_TYPE).send(JSON.stringify(body));

const callerOf = (request: FastifyRequest): ScimCaller => {
  if (!request.scim) throw new ScimError(401, 'A SCIM bearer token is required.');
  return request.scim;
};

const listQuery = (request: FastifyRequest) =>
  request.query as { filter?: string; startIndex?: string; count?: string };
const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;
const bodyOf = (request: FastifyRequest) => (request.body ?? {}) as Record<string, unknown>;

/**
 * SCIM 2.0 at /scim/v2 (RFC 7643/7644), for Okta and Microsoft Entra: its own bearer token per
 * workspace (never a session), application/scim+json in and out, errors in SCIM's shape. A token
 * of a workspace whose plan lacks SSO is refused (403), as is an unknown or revoked one (401).
 */
export const scimRoutes: FastifyPluginAsync = async (app) => {
  const scim = app.services.scim;
  const json = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(SCIM_CONTENT_TYPE, { parseAs: 'string' }, json);

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof ScimError)
      return send(reply, error.status, scimErrorBody(error.status, error.message, error.scimType));
    if (error instanceof AppError) {
      return send(
        reply,
        error.status,
        scimErrorBody(error.status, error.message, error.status === 409 ? 'uniqueness' : undefined),
      );
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500)
      return send(reply, status, scimErrorBody(status, 'The request is not valid.', 'invalidValue'));
    request.log.error({ err: error }, 'scim request failed');
    return send(reply, 500, scimErrorBody(500, 'Something went wrong.'));
  });

  app.addHook('onRequest', async (request, reply) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    const found = match?.[1] ? await scim.authenticate(match[1]) : undefined;
    if (!found) {
      reply.header('www-authenticate', 'Bearer');
      throw new ScimError(401, 'The SCIM bearer token is missing, unknown or revoked.');
    }
    if (!workspaceHasFeature(found.workspace, 'sso', new Date(), app.config.billing)) {
      throw new ScimError(403, 'SCIM provisioning needs the Pro plan (with SSO). Upgrade to use it.');
    }
    request.scim = { workspaceId: found.workspace.id, workspaceName: found.workspace.name, tokenId: found.tokenId };
  });

  const tags = ['scim'];
  const doc = (summary: string) => ({ schema: { tags, summary } });

  app.get('/ServiceProviderConfig', doc('What this SCIM service supports'), async (_request, reply) =>
    send(reply, 200, {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
      patch: { supported: true },
      bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
      filter: { supported: true, maxResults: 200 },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: false },
      authenticationSchemes: [
        { type: 'oauthbearertoken', name: 'Bearer token', description: 'The workspace SCIM token', primary: true },
      ],
    }),
  );

  const resourceTypes = [
    { id: 'User', name: 'User', endpoint: '/Users', schema: SCHEMA.user },
    { id: 'Group', name: 'Group', endpoint: '/Groups', schema: SCHEMA.group },
  ].map((t) => ({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'], ...t }));
  app.get('/ResourceTypes', doc('The resource types: User and Group'), async (_request, reply) =>
    send(reply, 200, {
      schemas: [SCHEMA.list],
      totalResults: 2,
      startIndex: 1,
      itemsPerPage: 2,
      Resources: resourceTypes,
    }),
  );

  const schemas = [
    {
      id: SCHEMA.user,
      name: 'User',
      attributes: ['userName', 'name', 'displayName', 'emails', 'active', 'externalId'].map((name) => ({ name })),
    },
    { id: SCHEMA.group, name: 'Group', attributes: ['displayName', 'members'].map((name) => ({ name })) },
  ];
  app.get('/Schemas', doc('The User and Group schemas (the attributes Sundial keeps)'), async (_request, reply) =>
    send(reply, 200, { schemas: [SCHEMA.list], totalResults: 2, startIndex: 1, itemsPerPage: 2, Resources: schemas }),
  );

  type Handlers = {
    list: (c: ScimCaller, f: ReturnType<typeof parseFilter>, p: ReturnType<typeof pageOf>) => Promise<unknown>;
    get: (c: ScimCaller, id: string) => Promise<unknown>;
    create: (c: ScimCaller, body: Record<string, unknown>) => Promise<unknown>;
    replace: (c: ScimCaller, id: string, body: Record<string, unknown>) => Promise<unknown>;
    patch: (c: ScimCaller, id: string, body: unknown) => Promise<unknown>;
    remove: (c: ScimCaller, id: string) => Promise<void>;
  };
  const resources: [string, Handlers][] = [
    [
      'Users',
      {
        list: scim.listUsers,
        get: scim.getUser,
        create: scim.createUser,
        replace: scim.replaceUser,
        patch: scim.patchUser,
        remove: scim.deleteUser,
      },
    ],
    [
      'Groups',
      {
        list: scim.listGroups,
        get: scim.getGroup,
        create: scim.createGroup,
        replace: scim.replaceGroup,
        patch: scim.patchGroup,
        remove: scim.deleteGroup,
      },
    ],
  ];
  for (const [path, { list, get, create, replace, patch, remove }] of resources) {
    app.get(
      `/${path}`,
      doc(`${path}, filtered (attribute eq "value") and paged (startIndex, count)`),
      async (request, reply) => {
        const query = listQuery(request);
        return send(reply, 200, await list(callerOf(request), parseFilter(query.filter), pageOf(query)));
      },
    );
    app.get(`/${path}/:id`, doc(`One of ${path}`), async (request, reply) =>
      send(reply, 200, await get(callerOf(request), idOf(request))),
    );
    app.post(`/${path}`, doc(`Create one of ${path}`), async (request, reply) =>
      send(reply, 201, await create(callerOf(request), bodyOf(request))),
    );
    app.put(`/${path}/:id`, doc(`Replace one of ${path}`), async (request, reply) =>
      send(reply, 200, await replace(callerOf(request), idOf(request), bodyOf(request))),
    );
    app.patch(`/${path}/:id`, doc(`Change one of ${path} (PatchOp)`), async (request, reply) =>
      send(reply, 200, await patch(callerOf(request), idOf(request), request.body)),
    );
    app.delete(`/${path}/:id`, doc(`Delete one of ${path}`), async (request, reply) => {
      await remove(callerOf(request), idOf(request));
      return reply.status(204).send();
    });
  }
};

const tokenView = z.object({
  active: z.boolean(),
  createdAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  baseUrl: z.string(),
});

/** The workspace's SCIM token in the app (owners and admins): its state, a new one (shown once), revoking it. */
export const scimTokenRoutes: FastifyPluginAsyncZod = async (app) => {
  const { scim } = app.services;
  const tags = ['scim'];
  const url = '/workspaces/:workspaceId/scim-token';
  app.get(
    url,
    {
      schema: {
        tags,
        summary: 'Whether a SCIM token is set, and when it was last used',
        params: workspaceParams,
        response: { 200: tokenView, ...errorResponses },
      },
    },
    async (request) => scim.tokenStatus(actorOf(request)),
  );
  app.post(
    url,
    {
      schema: {
        tags,
        summary: 'A new SCIM token, replacing the old one: shown this once',
        params: workspaceParams,
        response: { 201: z.object({ token: z.string(), baseUrl: z.string() }), ...errorResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await scim.issueToken(actorOf(request))),
  );
  app.delete(
    url,
    {
      schema: {
        tags,
        summary: 'Revoke the SCIM token',
        params: workspaceParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await scim.revokeToken(actorOf(request));
      return reply.status(204).send(null);
    },
  );
};
