import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/** What one POST to an endpoint came to. */
export interface PostResult {
  /** A 2xx answer. */
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  /** The first bytes of the answer's body (up to `keepBytes`). */
  body: string | null;
  /** Why it failed (a refused target, a timeout, a connection error, a non-2xx status). */
  error: string | null;
  /** The target was refused: a private or local address (SSRF). */
  refused: boolean;
}

const REFUSED = 'WEBHOOK_TARGET_REFUSED';

/**
 * Whether an address is on the public internet: ipaddr.js names every special range (loopback,
 * RFC 1918, fc00::/7, link-local with 169.254.169.254, unspecified, CGNAT, multicast, reserved,
 * and the IPv6 forms that embed IPv4); only `unicast` is public. IPv4-mapped IPv6 is judged as its IPv4.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

export const refusedMessage = (address: string) =>
  `This URL leads to ${ipaddr.isValid(address) ? ipaddr.process(address).toString() : address}, a private or local address that webhooks may not reach.`;

const refusal = (address: string) => Object.assign(new Error(refusedMessage(address)), { code: REFUSED });

/**
 * The connection's DNS look-up: every address the name resolves to is checked, and the socket
 * connects only to a checked one, so a name cannot be switched to a private address between the
 * check and the connection (DNS rebinding). Called on every connection.
 */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, verbatim: true }).then(
      (found) => {
        const family = options.family === 4 || options.family === 6 ? options.family : undefined;
        const addresses = family ? found.filter((a) => a.family === family) : found;
        const first = addresses[0];
        if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
        const bad = allowPrivate ? undefined : addresses.find((a) => !isPublicAddress(a.address));
        if (bad) return callback(refusal(bad.address), '');
        if (options.all) return (callback as (e: null, a: typeof addresses) => void)(null, addresses);
        callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

/** Why a request failed, in words for the delivery log. */
function describe(error: NodeJS.ErrnoException, host: string): string {
  if (error.code === REFUSED) return error.message;
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return `${host} could not be found (DNS).`;
  if (error.code === 'ECONNREFUSED') return `${host} refused the connection.`;
  return error.message || 'The request failed.';
}

/**
 * POSTs `body` to `url` once: no redirect is followed (a 3xx is a failure), the whole exchange
 * is bounded by `timeoutMs`, and unless `allowPrivate` a target on a private or local address is
 * refused, whether the URL names the address or DNS answers it.
 */
export async function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { allowPrivate: boolean; timeoutMs: number; keepBytes: number },
): Promise<PostResult> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  const fail = (error: string, refused = false): PostResult => ({
    ok: false,
    statusCode: null,
    durationMs: took(),
    body: null,
    error,
    refused,
  });
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    return fail('Only http:// and https:// URLs can receive webhooks.', true);
  }
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  // A literal address is connected to without a look-up: it is checked here.
  if (net.isIP(host) && !options.allowPrivate && !isPublicAddress(host)) return fail(refusedMessage(host), true);

  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const settle = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = (target.protocol === 'https:' ? https : http).request(target, {
      method: 'POST',
      // A new connection each time, so each one is looked up and checked.
      agent: false,
      lookup: guardedLookup(options.allowPrivate),
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    });
    const timer = setTimeout(() => {
      request.destroy(Object.assign(new Error(`No answer within ${options.timeoutMs / 1000} s.`), { code: 'TIMEOUT' }));
    }, options.timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => settle(fail(describe(error, host), error.code === REFUSED)));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      const done = () => {
        const status = response.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        settle({
          ok,
          statusCode: status,
          durationMs: took(),
          body: Buffer.concat(chunks).toString('utf8'),
          error: ok
            ? null
            : status >= 300 && status < 400
              ? `Answered ${status} (a redirect, which is not followed).`
              : `Answered ${status}.`,
          refused: false,
        });
      };
      response.on('data', (chunk: Buffer) => {
        if (kept >= options.keepBytes) return;
        const part = chunk.subarray(0, options.keepBytes - kept);
        chunks.push(part);
        kept += part.length;
        if (kept >= options.keepBytes) {
          done();
          response.destroy();
        }
      });
      response.on('end', done);
      response.on('error', done);
    });
    request.end(body);
  });
}
