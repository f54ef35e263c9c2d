/**
 * Signed event bodies, Stripe's way: the payment gateway's events and the webhooks Sundial delivers
 * (issue 34) are signed and checked by these.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from './errors.js';

/** The header a signed event (a payment event, a webhook delivery) carries: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const SIGNATURE_HEADER = 'sundial-signature';

/** How old a signature may be, either way, before it is refused (a replay from long ago). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const hmac = (secret: string, timestamp: number, rawBody: string): string =>
  createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');

/** Signs a raw event body the way Stripe does: HMAC-SHA256 over `${timestamp}.${rawBody}`. */
export function signPayload(rawBody: string, secret: string, now: Date): string {
  const timestamp = Math.floor(now.getTime() / 1000);
  return `t=${timestamp},v1=${hmac(secret, timestamp, rawBody)}`;
}

const invalid = (message: string) => new AppError('invalid_signature', message, { status: 400 });

/**
 * Checks a signature header against the raw body: one of its `v1` values must be the HMAC of
 * `${t}.${rawBody}` (compared in constant time), and `t` within five minutes of `now`.
 * Throws 400 `invalid_signature` otherwise.
 */
export function verifySignature(rawBody: string, header: string | undefined, secret: string, now: Date): void {
  if (!header) throw invalid('The event has no signature.');
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && value !== undefined && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && value !== undefined) signatures.push(value);
  }
  if (timestamp === undefined || signatures.length === 0) throw invalid('The event signature is malformed.');
  if (Math.abs(now.getTime() / 1000 - timestamp) > SIGNATURE_TOLERANCE_SECONDS) {
    throw invalid('The event signature is too old (or from the future).');
  }
  const expected = Buffer.from(hmac(secret, timestamp, rawBody), 'hex');
  const matches = signatures.some((signature) => {
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw invalid('The event signature does not match.');
}
