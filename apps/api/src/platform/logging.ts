import { type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from 'fastify';

/**
 * Path segments and query values that carry a secret: reset, invitation and report CSV link
 * tokens, and the sandbox gateway's second-step ids (whoever has one may answer the step).
 */
const SECRET_IN_PATH =
  /(\/(?:invites|password\/reset|public\/reports\/csv|calendar-feeds|payments\/sandbox\/actions)\/)[^/?#]+/g;
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

/**
 * Where each request is logged: a request that went well is a debug line (a busy server would
 * otherwise bury the lines an owner reads, such as e-mails written to the log), a 5xx is an
 * error, and one that took at least `slowMs` is a warning with its method and URL. 4xx answers
 * (a signed-out tab asking who it is, a wrong password) are debug lines too; LOG_LEVEL=debug
 * shows every request as before.
 */
export class RequestLogController extends LogController {
  readonly slowMs: number;

  constructor({ slowMs }: { slowMs: number }) {
    super({ requestIdLogLabel: 'requestId' });
    this.slowMs = slowMs;
  }

  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const fields = { res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ req: request, ...fields, err: error }, 'request errored');
    else if (reply.statusCode >= 500) reply.log.error({ req: request, ...fields }, 'request completed');
    else if (reply.elapsedTime >= this.slowMs && !isDownload(reply))
      reply.log.warn({ req: request, ...fields }, `slow request: ${Math.round(reply.elapsedTime)} ms`);
    else reply.log.debug(fields, 'request completed');
  }

  override defaultErrorLog(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (reply.statusCode >= 500) reply.log.error({ req: request, res: reply, err: error }, error?.message);
    else reply.log.debug({ res: reply, err: error }, error?.message);
  }

  override routeNotFound(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug(`Route ${request.raw.method}:${redactUrl(request.raw.url ?? '')} not found`);
  }

  override streamError(error: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    // A reader that went away mid-download is ordinary.
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') reply.log.debug({ res: reply }, 'stream closed prematurely');
    else reply.log.warn({ err: error }, 'response terminated with an error with headers already sent');
  }
}

/** A file or a live stream: its time is the reader's (a slow network, an open tab), not the server's. */
function isDownload(reply: FastifyReply): boolean {
  const type = String(reply.getHeader('content-type') ?? '');
  return (
    type.startsWith('text/event-stream') ||
    String(reply.getHeader('content-disposition') ?? '').startsWith('attachment')
  );
}
