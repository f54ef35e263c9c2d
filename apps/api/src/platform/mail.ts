import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import { z } from 'zod';
import type { Db } from '../db/connection.js';
import { newId } from './ids.js';
import { defineJob, type JobRunner } from './jobs.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** A file sent with a message; its bytes are never logged or stored. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** A message with attachments, to several recipients at once (they see each other's addresses). */
export interface MailWithAttachments {
  to: string[];
  subject: string;
  text: string;
  attachments: MailAttachment[];
}

export interface Mailer {
  /**
   * Records the message in the outbox and, when an SMTP server is set, queues its delivery as a
   * job (retried with backoff while the server refuses), so a request's timing never tells
   * whether mail was sent. Pass the caller's transaction as `db` to send only if it commits.
   */
  send(message: MailMessage, options?: { db?: Db }): Promise<void>;
  /**
   * Sends a message with attachments at once, for callers that are themselves a retried job (the
   * outbox keeps text only, so files never sit in the database). The outbox gets a row without
   * the files, marked sent or with the error; a refusal throws, for the caller's job to retry.
   * Without SMTP_URL the message (never its files' bytes) is logged and kept in the outbox.
   */
  sendNow(message: MailWithAttachments): Promise<void>;
  /** Runs due jobs (deliveries among them) now: for tests and scripts that want the mail out. */
  flush(): Promise<void>;
}

export interface MailerOptions {
  db: Db;
  log: FastifyBaseLogger;
  smtpUrl?: string;
  from: string;
  /** Delivers the outbox; the mailer registers its job here. */
  jobs: JobRunner;
  /**
   * Without SMTP_URL, where each e-mail is also written as a readable block (the log line stays
   * one JSON object): the terminal's stderr in production, unset in tests and with LOG_JSON_ONLY.
   */
  print?: NodeJS.WritableStream;
}

/** Delivers one outbox row over SMTP. */
export const deliverMailJob = defineJob('mail.deliver', z.object({ mailId: z.uuid() }));

/** Outbox rows older than this are deleted (the outbox is a delivery log, not an archive). */
export const OUTBOX_KEEP_DAYS = 30;

/** The addresses in a message's text, so a reader of the log can find a link at a glance. */
const linksIn = (text: string): string[] => text.match(/https?:\/\/\S+/g) ?? [];

/** The first line of each readable e-mail block: what the README tells an owner to look (and grep) for. */
export const MAIL_BLOCK_HEADER = '===== e-mail (SMTP_URL is not set) =====';

/** An e-mail as a person reads it in a terminal, links on lines of their own. */
export function readableMail(message: { to: string; subject: string; text: string; files?: string[] }): string {
  return [
    '',
    MAIL_BLOCK_HEADER,
    `To:      ${message.to}`,
    `Subject: ${message.subject}`,
    ...(message.files?.length ? [`Files:   ${message.files.join(', ')}`] : []),
    '',
    message.text.trimEnd(),
    '='.repeat(MAIL_BLOCK_HEADER.length),
    '',
    '',
  ].join('\n');
}

/**
 * Without SMTP_URL, every message is written to the log in full, links included: that is how
 * someone running Sundial without a mail server invites people and resets passwords. The log
 * then holds working links (reset and invitation tokens), which is said at start and in the
 * README. With SMTP_URL set, a message's text is never logged.
 */
export function createMailer({ db, log, smtpUrl, from, jobs, print }: MailerOptions): Mailer {
  const transport: Transporter | undefined = smtpUrl ? nodemailer.createTransport(smtpUrl) : undefined;
  if (!transport) log.info('SMTP_URL is not set: e-mails are written to this log');
  if (transport) {
    // About two hours of retries (30 s doubling to 32 min), then a dead letter and the error in the outbox.
    jobs.register(deliverMailJob, ({ mailId }) => deliver(transport, mailId), {
      maxAttempts: 8,
      backoffMs: 30_000,
      maxBackoffMs: 32 * 60_000,
    });
  }
  return {
    async send(message, options = {}) {
      const id = newId();
      const record = async (target: Db) => {
        await target
          .insertInto('outbox')
          .values({
            id,
            to_address: message.to,
            subject: message.subject,
            text_body: message.text,
            html_body: message.html ?? null,
          })
          .execute();
        if (transport) await jobs.enqueue(target, deliverMailJob, { mailId: id });
      };
      if (options.db) await record(options.db);
      else await db.transaction().execute(record);
      if (!transport) {
        log.info(
          { mailId: id, to: message.to, subject: message.subject, links: linksIn(message.text), text: message.text },
          `e-mail to ${message.to} (SMTP_URL is not set): ${message.subject}`,
        );
        print?.write(readableMail(message));
        return;
      }
      jobs.wake();
    },
    async sendNow(message) {
      const id = newId();
      const to = message.to.join(', ');
      const files = message.attachments.map((a) => ({
        name: a.filename,
        type: a.contentType,
        bytes: a.content.length,
      }));
      await db
        .insertInto('outbox')
        .values({
          id,
          to_address: to,
          subject: message.subject,
          text_body: `${message.text}\n\n[attached: ${files.map((f) => `${f.name} (${f.bytes} bytes)`).join(', ')}]`,
          html_body: null,
        })
        .execute();
      if (!transport) {
        log.info(
          { mailId: id, to, subject: message.subject, attachments: files, text: message.text },
          `e-mail to ${to} (SMTP_URL is not set): ${message.subject}`,
        );
        print?.write(
          readableMail({ to, subject: message.subject, text: message.text, files: files.map((f) => f.name) }),
        );
        return;
      }
      try {
        await transport.sendMail({
          from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          attachments: message.attachments.map((a) => ({
            filename: a.filename,
            contentType: a.contentType,
            content: a.content,
          })),
        });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        await db.updateTable('outbox').set({ error: reason }).where('id', '=', id).execute();
        throw error;
      }
      await db.updateTable('outbox').set({ sent_at: new Date(), error: null }).where('id', '=', id).execute();
      log.info({ mailId: id, to, subject: message.subject, attachments: files }, 'mail sent');
    },
    async flush() {
      await jobs.drain();
    },
  };

  async function deliver(transport: Transporter, id: string): Promise<void> {
    const mail = await db
      .selectFrom('outbox')
      .select(['to_address', 'subject', 'text_body', 'html_body', 'sent_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    // Purged, or sent by an earlier attempt whose worker stopped before it could say so.
    if (!mail || mail.sent_at) return;
    const message = {
      from,
      to: mail.to_address,
      subject: mail.subject,
      text: mail.text_body,
      ...(mail.html_body ? { html: mail.html_body } : {}),
    };
    try {
      await transport.sendMail(message);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      await db.updateTable('outbox').set({ error: reason }).where('id', '=', id).execute();
      throw error;
    }
    await db.updateTable('outbox').set({ sent_at: new Date(), error: null }).where('id', '=', id).execute();
    log.info({ mailId: id, to: mail.to_address, subject: mail.subject }, 'mail sent');
  }
}
