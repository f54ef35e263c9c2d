import type { FastifyInstance } from 'fastify';

/** The customer at the sandbox gateway's second step (a form post, as the browser sends it): complete or fail it. */
export function passSecondStep(app: FastifyInstance, nextActionUrl: string, outcome: 'complete' | 'fail' = 'complete') {
  return app.inject({
    method: 'POST',
    url: new URL(nextActionUrl).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `outcome=${outcome}`,
  });
}
