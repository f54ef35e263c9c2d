import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../db/connection.js';
import { newId } from './ids.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /**
   * Records the message in the outbox and returns; delivery over SMTP (when a server is set)
   * happens in the background so a request's timing never tells whether mail was sent.
   */
  send(message: MailMessage): Promise<void>;
  /** Waits for deliveries under way, for a clean shutdown and for tests. */
  flush(): Promise<void>;
}

export interface MailerOptions {
  db: Db;
  log: FastifyBaseLogger;
  smtpUrl?: string;
  from: string;
}

/** The addresses in a message's text, so a reader of the log can find a link at a glance. */
const linksIn = (text: string): string[] => text.match(/https?:\/\/\S+/g) ?? [];

/**
 * Without SMTP_URL, every message is written to the log in full, links included: that is how
 * someone running Sundial without a mail server invites people and resets passwords. The log
 * then holds working links (reset and invitation tokens), which is said at start and in the
 * README. With SMTP_URL set, a message's text is never logged.
 */
export function createMailer({ db, log, smtpUrl, from }: MailerOptions): Mailer {
  const transport: Transporter | undefined = smtpUrl ? nodemailer.createTransport(smtpUrl) : undefined;
  const pending = new Set<Promise<void>>();
  if (!transport) log.info('SMTP_URL is not set: e-mails are written to this log');
  return {
    async send(message) {
      const id = newId();
      await db
        .insertInto('outbox')
        .values({
          id,
          to_address: message.to,
          subject: message.subject,
          text_body: message.text,
          html_body: message.html ?? null,
        })
        .execute();
      if (!transport) {
        log.info(
          { mailId: id, to: message.to, subject: message.subject, links: linksIn(message.text), text: message.text },
          `e-mail to ${message.to} (SMTP_URL is not set): ${message.subject}`,
        );
        return;
      }
      const delivery = deliver(transport, id, message).finally(() => pending.delete(delivery));
      pending.add(delivery);
    },
    async flush() {
      await Promise.all([...pending]);
    },
  };

  async function deliver(transport: Transporter, id: string, message: MailMessage): Promise<void> {
    try {
      await transport.sendMail({ from, ...message });
      await db.updateTable('outbox').set({ sent_at: new Date() }).where('id', '=', id).execute();
      log.info({ mailId: id, to: message.to, subject: message.subject }, 'mail sent');
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      await db.updateTable('outbox').set({ error: reason }).where('id', '=', id).execute();
      log.error({ mailId: id, err: error }, 'mail delivery failed');
    }
  }
}
