import { ssoDomainSchema, ssoStartBody, workspaceSsoBody, workspaceSsoView } from '@sundial/core';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/actor.js';
import { errorResponses, workspaceParams } from '../../platform/schemas.js';
import { client, crossSitePostCookieOptions, finishInBrowser, STATE_COOKIE } from './sso.routes.js';
import { STATE_MS } from './sso.service.js';

const tags = ['sso'];
const urlView = z.object({ url: z.string() });
const domainParams = workspaceParams.extend({ domain: ssoDomainSchema });

/** Workspace SSO (Pro): the owner's and admins' settings, and the sign-in through the workspace's identity provider. */
export const workspaceSsoRoutes: FastifyPluginAsyncZod = async (app) => {
  const { workspaceSso } = app.services;

  app.get(
    '/workspaces/:workspaceId/sso',
    {
      schema: {
        tags,
        summary: "The workspace's single sign-on settings and domains (owner or admin)",
        params: workspaceParams,
        response: { 200: workspaceSsoView, ...errorResponses },
      },
    },
    async (request) => workspaceSso.get(actorOf(request)),
  );

  app.put(
    '/workspaces/:workspaceId/sso',
    {
      schema: {
        tags,
        summary: "Set the workspace's identity provider, OpenID Connect or SAML (owner or admin, Pro)",
        params: workspaceParams,
        body: workspaceSsoBody,
        response: { 200: workspaceSsoView, ...errorResponses },
      },
    },
    async (request) => workspaceSso.save(actorOf(request), request.body),
  );

  app.delete(
    '/workspaces/:workspaceId/sso',
    {
      schema: {
        tags,
        summary: "Remove the workspace's identity provider (owner or admin)",
        params: workspaceParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await workspaceSso.remove(actorOf(request));
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/workspaces/:workspaceId/sso/domains',
    {
      schema: {
        tags,
        summary:
          'Claim an e-mail domain for the identity provider, unverified, with its TXT record to publish (owner or admin, Pro)',
        params: workspaceParams,
        body: z.object({ domain: ssoDomainSchema }),
        response: { 200: workspaceSsoView, ...errorResponses },
      },
    },
    async (request) => workspaceSso.addDomain(actorOf(request), request.body.domain),
  );

  app.delete(
    '/workspaces/:workspaceId/sso/domains/:domain',
    {
      schema: {
        tags,
        summary: 'Remove an e-mail domain (owner or admin)',
        params: domainParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await workspaceSso.removeDomain(actorOf(request), request.params.domain);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/workspaces/:workspaceId/sso/domains/:domain/verify',
    {
      schema: {
        tags,
        summary:
          "Verify a domain by its TXT record: _sundial-challenge.<domain> must hold the claim's value (owner or admin, Pro)",
        params: domainParams,
        response: { 200: workspaceSsoView, ...errorResponses },
      },
    },
    async (request) => workspaceSso.verifyDomain(actorOf(request), request.params.domain),
  );

  app.post(
    '/auth/sso/start',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Log in with SSO: where the identity provider of the e-mail’s domain (or the workspace) is',
        body: ssoStartBody,
        response: { 200: urlView, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { url, state } = await workspaceSso.startSignIn(request.body);
      reply.setCookie(STATE_COOKIE, state, crossSitePostCookieOptions(app.config, STATE_MS));
      return { url };
    },
  );

  app.get(
    '/auth/sso/oidc/callback',
    {
      config: { public: true },
      schema: { tags, summary: "A workspace's OpenID provider's redirect back", response: errorResponses },
    },
    async (request, reply) =>
      finishInBrowser(reply, app.config, () =>
        workspaceSso.finishOidc(
          new URL(request.url, app.config.publicUrl),
          request.cookies[STATE_COOKIE],
          client(request),
        ),
      ),
  );

  app.get(
    '/auth/sso/saml/:workspaceId/metadata',
    {
      config: { public: true },
      schema: {
        tags,
        summary: "This Sundial's SAML service provider metadata for the workspace",
        params: workspaceParams,
        produces: ['application/samlmetadata+xml'],
        response: { 200: z.string(), ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .type('application/samlmetadata+xml; charset=utf-8')
        .send(await workspaceSso.metadata(request.params.workspaceId)),
  );

  await app.register(async (scope) => {
    const form = scope.withTypeProvider<ZodTypeProvider>();
    // The identity provider's page posts the response as an HTML form (HTTP-POST binding).
    form.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    form.post(
      '/auth/sso/saml/:workspaceId/acs',
      {
        // The identity provider's page posts here; the signed assertion, our request's id and the
        // browser's state cookie (crossSitePostCookieOptions) prove it.
        config: { public: true, crossSite: true },
        schema: {
          tags,
          summary: "The workspace's SAML assertion consumer service: checks the signed response and signs in",
          params: workspaceParams,
          body: z.object({ SAMLResponse: z.string().max(500_000), RelayState: z.string().max(200) }),
          response: errorResponses,
        },
      },
      async (request, reply) =>
        finishInBrowser(reply, app.config, () =>
          workspaceSso.finishSaml(
            request.params.workspaceId,
            request.body,
            request.cookies[STATE_COOKIE],
            client(request),
          ),
        ),
    );
  });
};
