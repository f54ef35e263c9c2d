import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Requests to addresses people give us (webhooks' endpoints, calendars' ICS addresses), guarded
 * against SSRF: every address a name resolves to must be public, checked on every connection, so a
 * name cannot be switched to a private address between a check and the connection (DNS
 * rebinding); a redirect is not followed unless asked, and then each hop is checked the same way;
 * the whole exchange is bounded in time and in size. `OUTBOUND_ALLOW_PRIVATE_TARGETS` (formerly
 * `WEBHOOKS_ALLOW_PRIVATE_TARGETS`) lets an operator reach their own network.
 */

/** What one request came to. */
export interface OutboundResult {
  /** A 2xx answer. */
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  /** The body's first bytes (up to `keepBytes`), or the whole body (up to `maxBytes`). */
  body: string | null;
  /** Why it failed (a refused target, a timeout, a connection error, a non-2xx status, too large). */
  error: string | null;
  /** The target was refused: a private or local address (SSRF), or not http(s). */
  refused: boolean;
}

export interface OutboundOptions {
  method: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  /** Loopback, private and link-local targets are allowed (the operator's own network). */
  allowPrivate: boolean;
  /** The whole exchange, redirects included. */
  timeoutMs: number;
  /** Keep at most this many bytes of the answer and stop reading (the rest does not matter). */
  keepBytes?: number;
  /** Fail when the answer is larger than this (the whole body matters). */
  maxBytes?: number;
  /** Redirects to follow (0: a 3xx is a failure); each hop is checked like the first. */
  maxRedirects?: number;
  /** What may not reach a private address, for the refusal: "webhooks", "calendars". */
  purpose: string;
  /**
   * Connections kept open between requests to one target (a batch of webhook deliveries); each
   * new connection is still looked up and checked. Without: a new connection per request.
   */
  connections?: OutboundConnections;
}

/** Keep-alive connections for a run of requests to one target, closed by `close()` after it. */
export interface OutboundConnections {
  readonly http: http.Agent;
  readonly https: https.Agent;
  close(): void;
}

/**
 * Connections reused across a run of requests (`maxSockets` at once). The address check is on
 * each connection (the request's `lookup`), so reuse never reaches an address that was not checked;
 * a connection lives as long as the run, not beyond.
 */
export function outboundConnections(maxSockets: number): OutboundConnections {
  const agentOptions = { keepAlive: true, maxSockets, scheduling: 'lifo' as const };
  const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
  return {
    ...agents,
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

const REFUSED = 'OUTBOUND_TARGET_REFUSED';
const TOO_LARGE = 'OUTBOUND_TOO_LARGE';

/**
 * Whether an address is on the public internet: ipaddr.js names every special range (loopback,
 * RFC 1918, fc00::/7, link-local with 169.254.169.254, unspecified, CGNAT, multicast, reserved,
 * and the IPv6 forms that embed IPv4); only `unicast` is public. IPv4-mapped IPv6 is judged as its IPv4.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

export const refusedMessage = (address: string, purpose: string) =>
  `This URL leads to ${ipaddr.isValid(address) ? ipaddr.process(address).toString() : address}, a private or local address that ${purpose} may not reach.`;

const refusal = (address: string, purpose: string) =>
  Object.assign(new Error(refusedMessage(address, purpose)), { code: REFUSED });

/**
 * The connection's DNS look-up: every address the name resolves to is checked, and the socket
 * connects only to a checked one. Called on every connection.
 */
function guardedLookup(allowPrivate: boolean, purpose: string): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, verbatim: true }).then(
      (found) => {
        const family = options.family === 4 || options.family === 6 ? options.family : undefined;
        const addresses = family ? found.filter((a) => a.family === family) : found;
        const first = addresses[0];
        if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
        const bad = allowPrivate ? undefined : addresses.find((a) => !isPublicAddress(a.address));
        if (bad) return callback(refusal(bad.address, purpose), '');
        if (options.all) return (callback as (e: null, a: typeof addresses) => void)(null, addresses);
        callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

/** Why a request failed, in words for a log or a person. */
function describe(error: NodeJS.ErrnoException, host: string): string {
  if (error.code === REFUSED || error.code === TOO_LARGE) return error.message;
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return `${host} could not be found (DNS).`;
  if (error.code === 'ECONNREFUSED') return `${host} refused the connection.`;
  return error.message || 'The request failed.';
}

/** The URL's refusal before any connection: not http(s), or a literal private address. */
function refusedTarget(target: URL, options: OutboundOptions): string | null {
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    return `Only http:// and https:// URLs can be used for ${options.purpose}.`;
  }
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  // A literal address is connected to without a look-up: it is checked here.
  if (net.isIP(host) && !options.allowPrivate && !isPublicAddress(host)) return refusedMessage(host, options.purpose);
  return null;
}

/**
 * Sends one request to `url` (and, with `maxRedirects`, to where it redirects, each hop checked
 * anew); never throws: a refusal, a timeout or a failure is in the answer.
 */
export async function sendOutbound(url: string, options: OutboundOptions): Promise<OutboundResult> {
  const started = performance.now();
  const deadline = Date.now() + options.timeoutMs;
  const took = () => Math.round(performance.now() - started);
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { ok: false, statusCode: null, durationMs: took(), body: null, error: 'This is not a URL.', refused: true };
  }
  for (let hop = 0; ; hop += 1) {
    const refused = refusedTarget(target, options);
    if (refused) return { ok: false, statusCode: null, durationMs: took(), body: null, error: refused, refused: true };
    const result = await once(target, options, Math.max(1, deadline - Date.now()));
    const location = result.location;
    if (location && hop < (options.maxRedirects ?? 0)) {
      target = new URL(location, target);
      continue;
    }
    return { ...result.answer, durationMs: took() };
  }
}

function once(
  target: URL,
  options: OutboundOptions,
  timeoutMs: number,
): Promise<{ answer: Omit<OutboundResult, 'durationMs'>; location?: string }> {
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  const fail = (error: string, refused = false) => ({
    answer: { ok: false, statusCode: null, body: null, error, refused },
  });
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: { answer: Omit<OutboundResult, 'durationMs'>; location?: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const body = options.body ?? '';
    const secure = target.protocol === 'https:';
    const request = (secure ? https : http).request(target, {
      method: options.method,
      // Without kept connections, a new one each time; either way each connection is looked up and checked.
      agent: options.connections ? options.connections[secure ? 'https' : 'http'] : false,
      lookup: guardedLookup(options.allowPrivate, options.purpose),
      headers: {
        ...options.headers,
        ...(options.body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
      },
    });
    const timer = setTimeout(() => {
      request.destroy(Object.assign(new Error(`No answer within ${options.timeoutMs / 1000} s.`), { code: 'TIMEOUT' }));
    }, timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => settle(fail(describe(error, host), error.code === REFUSED)));
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const redirect = status >= 300 && status < 400 ? response.headers.location : undefined;
      if (redirect && (options.maxRedirects ?? 0) > 0) {
        response.resume();
        settle({
          answer: { ok: false, statusCode: status, body: null, error: null, refused: false },
          location: redirect,
        });
        return;
      }
      const chunks: Buffer[] = [];
      let kept = 0;
      const done = () => {
        const ok = status >= 200 && status < 300;
        settle({
          answer: {
            ok,
            statusCode: status,
            body: Buffer.concat(chunks).toString('utf8'),
            error: ok
              ? null
              : status >= 300 && status < 400
                ? `Answered ${status} (a redirect, which is not followed).`
                : `Answered ${status}.`,
            refused: false,
          },
        });
      };
      response.on('data', (chunk: Buffer) => {
        if (options.maxBytes !== undefined && kept + chunk.length > options.maxBytes) {
          settle(fail(`The answer is larger than ${Math.round(options.maxBytes / 1_000_000)} MB.`));
          response.destroy();
          return;
        }
        const limit = options.keepBytes ?? Number.POSITIVE_INFINITY;
        if (kept >= limit) return;
        const part = chunk.subarray(0, limit - kept);
        chunks.push(part);
        kept += part.length;
        if (kept >= limit) {
          done();
          response.destroy();
        }
      });
      response.on('end', done);
      response.on('error', done);
    });
    request.end(options.body);
  });
}
