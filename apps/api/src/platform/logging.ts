import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/**
 * Path segments and query values that carry a secret: reset, invitation and report CSV link
 * tokens, and the sandbox gateway's second-step ids (whoever has one may answer the step).
 */
const SECRET_IN_PATH = /(\/(?:invites|password\/reset|public\/reports\/csv|payments\/sandbox\/actions)\/)[^/?#]+/g;
/** `token` of links; `code` and `state` of an identity provider's callback (OAuth's code is a credential until used). */
const SECRET_IN_QUERY = /([?&](?:token|code|state)=)[^&#]*/gi;

/** A URL fit for the log: secret tokens replaced, so logs never hold a working link. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_IN_PATH, '$1[redacted]').replace(SECRET_IN_QUERY, '$1[redacted]');
}

/** The server's logger settings: requests are logged without the tokens in their URLs. */
export function loggerOptions(
  level: string,
  stream?: NodeJS.WritableStream,
): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level,
    ...(stream ? { stream } : {}),
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  };
}
