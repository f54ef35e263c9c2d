import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { generate } from 'otplib';

const STEP_MS = 30_000;

/**
 * Turns two-factor authentication on for a signed-in user over HTTP, as the profile does; answers
 * the seed, so the test can make codes as an authenticator app would.
 */
export async function turnOnTwoFactor(app: FastifyInstance, cookie: string): Promise<{ secret: string }> {
  const setup = await app.inject({ method: 'POST', url: '/api/v1/me/two-factor/setup', headers: { cookie } });
  if (setup.statusCode !== 200) throw new Error(`2FA set-up failed: ${setup.body}`);
  const secret = setup.json().secret as string;
  const enabled = await app.inject({
    method: 'POST',
    url: '/api/v1/me/two-factor/enable',
    headers: { cookie },
    payload: { code: await generate({ secret, epoch: Math.floor(Date.now() / 1000) }) },
  });
  if (enabled.statusCode !== 200) throw new Error(`2FA enable failed: ${enabled.body}`);
  return { secret };
}

/** A code not used yet: the next step's (the enrolment spent this one's; the server accepts one step of skew). */
export function freshCode(secret: string): Promise<string> {
  return generate({ secret, epoch: Math.floor((Date.now() + STEP_MS) / 1000) });
}

/** The `cookie` header value of a cookie a response set, or '' when it set none. */
export function cookieOf(response: LightMyRequestResponse, name: string): string {
  const cookie = response.cookies.find((c) => c.name === name);
  return cookie ? `${cookie.name}=${cookie.value}` : '';
}

/** The sign-in's second step as the log-in page sends it after an identity provider: the code, the challenge in its cookie. */
export function sendSecondStep(
  app: FastifyInstance,
  challengeCookie: string,
  factor: { code?: string; recoveryCode?: string },
) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/auth/login/two-factor',
    headers: challengeCookie ? { cookie: challengeCookie } : {},
    payload: factor,
  });
}
