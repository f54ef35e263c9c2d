import { type ApiRoute, apiRoutes, type RouteSpec } from '@sundial/core';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { openDb } from './db/connection.js';
import { keyAllows, keyNeedOf } from './platform/api-key-scopes.js';

/**
 * Core's route table (packages/core/src/api-routes.ts) types the web's every call: it must name
 * routes this app registers, with the bodies they validate, or a renamed or reshaped route would
 * type-check on the web and fail in the browser. Read from the app's OpenAPI document; the app is
 * built but never queries (its database is never reached).
 */

interface Operation {
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
type Document = { paths: Record<string, Record<string, Operation>> };

let app: FastifyInstance;
let closeDb: () => Promise<void>;
let document: Document;

beforeAll(async () => {
  const config = loadConfig({
    NODE_ENV: 'test',
    PUBLIC_URL: 'http://localhost:3000',
    WEB_DIST: '/nonexistent',
    JOBS_ENABLED: 'false',
  });
  const handle = openDb({ databaseUrl: 'postgres://nobody@127.0.0.1:1/never-connected' });
  closeDb = () => handle.close();
  app = await buildApp({ config, db: handle.db, logger: false });
  await app.ready();
  document = app.swagger() as unknown as Document;
});

afterAll(async () => {
  await app?.close();
  await closeDb?.();
});

const ROUTES = Object.keys(apiRoutes) as ApiRoute[];

/** `GET /workspaces/:workspaceId` as the OpenAPI document spells it: `/api/v1/workspaces/{workspaceId}` and `get`. */
function operationOf(route: ApiRoute): Operation | undefined {
  const [method = '', path = ''] = route.split(' ');
  const documented = `/api/v1${path.replace(/:(\w+)/g, '{$1}')}`;
  return document.paths[documented]?.[method.toLowerCase()];
}

/** A body's or an answer's JSON Schema as the app documents a route's (the same transform). */
function documented(route: ApiRoute, part: { body: z.ZodType } | { response: { 200: z.ZodType } }): unknown {
  const [method = '', url = ''] = route.split(' ');
  const transformed = jsonSchemaTransform({
    schema: part,
    url,
    route: { method, url },
    openapiObject: { openapi: '3.1.0' },
  } as unknown as Parameters<typeof jsonSchemaTransform>[0]) as {
    schema: { body?: unknown; response?: Record<string, unknown> };
  };
  return normalised('body' in part ? transformed.schema.body : transformed.schema.response?.[200]);
}

/** The OpenAPI document writes a JSON Schema `const` as a one-value `enum`; so does the comparison. */
function normalised(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(normalised);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => (key === 'const' ? ['enum', [value]] : [key, normalised(value)])),
  );
}

const isZod = (value: unknown): value is z.ZodType =>
  typeof value === 'object' && value !== null && '_zod' in (value as Record<string, unknown>);

describe('the route table the web calls through', () => {
  it('names only routes the API registers', () => {
    expect(ROUTES.length).toBeGreaterThan(150);
    expect(ROUTES.filter((route) => !operationOf(route))).toEqual([]);
  });

  it('gives a body to exactly the routes that take one', () => {
    const wrong = ROUTES.filter((route) => {
      const spec: RouteSpec = apiRoutes[route];
      return Boolean(operationOf(route)?.requestBody) !== (spec.body !== undefined);
    });
    expect(wrong).toEqual([]);
  });

  it('gives each body the schema the API validates it with', () => {
    const wrong = ROUTES.filter((route) => {
      const spec: RouteSpec = apiRoutes[route];
      if (!isZod(spec.body)) return false;
      const registered = operationOf(route)?.requestBody?.content['application/json']?.schema;
      return JSON.stringify(registered) !== JSON.stringify(documented(route, { body: spec.body }));
    });
    expect(wrong).toEqual([]);
  });

  it('gives each answer the schema the API answers with', () => {
    const wrong = ROUTES.filter((route) => {
      const spec: RouteSpec = apiRoutes[route];
      if (!isZod(spec.answer)) return false;
      const responses = operationOf(route)?.responses ?? {};
      const success = Object.keys(responses).find((status) => /^2\d\d$/.test(status));
      const registered = success && responses[success]?.content?.['application/json']?.schema;
      return JSON.stringify(registered) !== JSON.stringify(documented(route, { response: { 200: spec.answer } }));
    });
    expect(wrong).toEqual([]);
  });
});

describe('what an API key needs for each route (platform/api-key-scopes.ts)', () => {
  /** Every documented route, as Fastify's pattern: `GET /api/v1/workspaces/:workspaceId/projects`. */
  const documentedRoutes = () =>
    Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => ({
        method: method.toUpperCase(),
        url: path.replace(/\{(\w+)\}/g, ':$1'),
      })),
    );

  it('classifies every route of a workspace: a new family must say which area it belongs to', () => {
    const routes = documentedRoutes().filter((r) => r.url.startsWith('/api/v1/workspaces/:workspaceId'));
    expect(routes.length).toBeGreaterThan(150);
    expect(routes.filter((r) => keyNeedOf(r.method, r.url) === undefined)).toEqual([]);
  });

  it('reads with GET, writes with the rest, and keeps sign-in, keys and security settings to a browser', () => {
    const ws = '/api/v1/workspaces/:workspaceId';
    expect(keyNeedOf('GET', `${ws}/time-entries`)).toEqual({ area: 'time', write: false });
    expect(keyNeedOf('DELETE', `${ws}/time-entries/:entryId`)).toEqual({ area: 'time', write: true });
    expect(keyNeedOf('POST', `${ws}/reports/export-jobs`)).toEqual({ area: 'reports', write: false });
    expect(keyNeedOf('GET', '/api/v1/me')).toBe('any');
    expect(keyNeedOf('GET', '/api/v1/workspaces')).toBe('any');
    for (const url of ['/api/v1/me/api-keys', '/api/v1/auth/logout', `${ws}/sso`, `${ws}/scim-token`, `${ws}/owner`]) {
      expect(keyNeedOf('POST', url), url).toBe('never');
    }
    const reader = { time: 'read', projects: 'none', reports: 'none', team: 'none', billing: 'none' } as const;
    expect(keyAllows(reader, { area: 'time', write: false })).toBe(true);
    expect(keyAllows(reader, { area: 'time', write: true })).toBe(false);
    expect(keyAllows(reader, { area: 'projects', write: false })).toBe(false);
    expect(keyAllows({ ...reader, billing: 'write' }, { area: 'billing', write: false })).toBe(true);
  });
});
