import { type DemoRequestInput, demoRequestMessages } from '@sundial/core';
import type { Config } from '../../config.js';
import type { Db } from '../../db/connection.js';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Mailer } from '../../platform/mail.js';
import { demoRequestMail } from './demo-requests.mails.js';
import { demoRequestsRepository } from './demo-requests.repository.js';

const WINDOW_MS = 60 * 60_000;
const MAX_PER_IP_PER_HOUR = 5;

export interface DemoRequestsServiceDeps {
  db: Db;
  config: Pick<Config, 'OPERATOR_EMAIL' | 'MAIL_FROM'>;
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
     * else MAIL_FROM's address). Throws 429 too_many_requests past five requests an hour from one IP.
     */
    async submit(input: DemoRequestInput, client: { ip: string; userAgent?: string }): Promise<{ id: string }> {
      const id = newId();
      await db.transaction().execute(async (tx) => {
        // One address at a time, so a batch sent at once cannot all pass the count before any is stored.
        await demoRequestsRepository.lockIp(tx, client.ip);
        const recent = await demoRequestsRepository.countFromIpSince(tx, client.ip, new Date(Date.now() - WINDOW_MS));
        if (recent >= MAX_PER_IP_PER_HOUR) {
          throw new AppError('too_many_requests', demoRequestMessages.tooMany, {
            status: 429,
            headers: { 'retry-after': String(WINDOW_MS / 1000) },
          });
        }
        await demoRequestsRepository.insert(tx, {
          id,
          name: input.name,
          email: input.email,
          company: input.company,
          team_size: input.teamSize,
          message: input.message,
          ip: client.ip,
          user_agent: client.userAgent?.slice(0, 500) ?? null,
        });
      });
      // After the commit: the outbox write must not run inside the transaction.
      await mailer.send({ to: operator, ...demoRequestMail(input) });
      return { id };
    },
  };
}
