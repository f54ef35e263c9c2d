import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';

/**
 * What a record written while serving a request should know of that request but no service is
 * handed: the address it came from and the API key that signed it (the audit log keeps both).
 * Held per request in async-local storage, so a write deep in a service reads it without every
 * call passing it on; outside a request (a job) there is none.
 */
export interface RequestContext {
  ip: string | null;
  /** Set once the bearer token is recognised as an API key (platform/auth.ts). */
  apiKeyId: string | null;
}

const storage = new AsyncLocalStorage<RequestContext>();
const scope = Symbol('request-context-scope');

type Scoped = { [scope]?: AsyncResource };

/** The context of the request being served, if any. */
export const requestContext = (): RequestContext | undefined => storage.getStore();

/** Runs `work` as though serving a request with this context (jobs and tests). */
export const withRequestContext = <T>(context: RequestContext, work: () => T): T => storage.run(context, work);

/**
 * Opens each request's context before any other hook runs. The body is read on the socket's own
 * events, outside it, so the context is re-entered for validation and the handler.
 */
export function installRequestContext(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    storage.run({ ip: request.ip ?? null, apiKeyId: null }, () => {
      (request as Scoped)[scope] = new AsyncResource('sundial-request');
      done();
    });
  });
  app.addHook('preValidation', (request, _reply, done) => {
    const resource = (request as Scoped)[scope];
    if (resource) resource.runInAsyncScope(done);
    else done();
  });
}
