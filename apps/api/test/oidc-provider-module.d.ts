/** oidc-provider ships no types; the tests use this much of it (test/openid-provider.ts). */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface AccountClaims {
    sub: string;
    [claim: string]: unknown;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    /** Koa middleware around every endpoint. */
    use(
      middleware: (ctx: { path: string; body: unknown; method: string }, next: () => Promise<void>) => Promise<void>,
    ): void;
  }
}
