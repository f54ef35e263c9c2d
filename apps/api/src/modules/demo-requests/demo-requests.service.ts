import { type DemoRequestInput, limitMessages } from '@sundial/core';
import type { Config } from '../../config.js';
import type { Db } from '../../db/connection.js';
import { newId } from '../../platform/ids.js';
import type { Mailer } from '../../platform/mail.js';
import { hashedKey, rateLimiter } from '../../platform/rate-limits.js';
import { demoRequestMail } from './demo-requests.mails.js';
import { demoRequestsRepository } from './demo-requests.repository.js';

const WINDOW_MS = 60 * 60_000;

export interface DemoRequestsServiceDeps {
  db: Db;
  config: Pick<Config, 'OPERATOR_EMAIL' | 'MAIL_FROM' | 'RATE_LIMIT_DEMO_PER_IP' | 'RATE_LIMIT_DEMO_PER_EMAIL'>;
  mailer: Mailer;
}

/** The address in a From header such as `Sundial <no-reply@example.com>`, or the header itself. */
export function addressOf(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1]?.trim() ?? from.trim();
}

export function createDemoRequestsService({ db, config, mailer }: DemoRequestsServiceDeps) {
  const operator = config.OPERATOR_EMAIL ?? addressOf(config.MAIL_FROM);
  return {
    /**
     * Stores a demo request from the public site and e-mails it to the operator (OPERATOR_EMAIL,
     * else MAIL_FROM's address). Throws 429 too_many_requests past RATE_LIMIT_DEMO_PER_IP requests
     * an hour from one IP or RATE_LIMIT_DEMO_PER_EMAIL for one work e-mail; a refused one stores nothing.
     */
    async submit(input: DemoRequestInput, client: { ip: string; userAgent?: string }): Promise<{ id: string }> {
      await rateLimiter.hit(db, {
        bucket: `demo:ip:${client.ip}`,
        limit: config.RATE_LIMIT_DEMO_PER_IP,
        windowMs: WINDOW_MS,
        message: limitMessages.demoPerIp,
      });
      await rateLimiter.hit(db, {
        bucket: `demo:email:${hashedKey(input.email)}`,
        limit: config.RATE_LIMIT_DEMO_PER_EMAIL,
        windowMs: WINDOW_MS,
        message: limitMessages.demoPerEmail,
      });
      const id = newId();
      await demoRequestsRepository.insert(db, {
        id,
        name: input.name,
        email: input.email,
        company: input.company,
        team_size: input.teamSize,
        message: input.message,
        ip: client.ip,
        user_agent: client.userAgent?.slice(0, 500) ?? null,
      });
      await mailer.send({ to: operator, ...demoRequestMail(input) });
      return { id };
    },
  };
}
