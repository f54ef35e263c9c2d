import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { emailVerificationMail } from '../src/modules/auth/auth.mails.js';

export interface Inbox {
  url: string;
  /** What arrived, but the links confirming an address that every sign-up is sent (docs/decisions/0014). */
  messages: ParsedMail[];
  /**
   * The next message to an address whose subject matches, waiting for it to arrive. Without
   * `subject`, any of `messages` (so not a sign-up's confirmation link).
   */
  waitFor(to: string, timeoutMs?: number, subject?: RegExp): Promise<ParsedMail>;
  close(): Promise<void>;
}

/** The lower-cased addresses a message was sent to. */
export const recipients = (mail: ParsedMail): string[] =>
  [mail.to]
    .flat()
    .flatMap((a) => a?.value ?? [])
    .flatMap((v) => (v.address ? [v.address.toLowerCase()] : []));

const isConfirmation = (mail: ParsedMail) => mail.subject === emailVerificationMail('').subject;

/** A real SMTP server on a free local port that keeps what it receives. */
export async function startInbox(
  options: {
    onMessage?: (mail: ParsedMail) => void;
    /** Answers this many messages (confirmation links aside) with a temporary failure (451) before accepting any. */
    refuseFirst?: number;
  } = {},
): Promise<Inbox> {
  const arrived: ParsedMail[] = [];
  const messages: ParsedMail[] = [];
  let refusals = options.refuseFirst ?? 0;
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          // A sign-up's confirmation link is not one of the messages a test refuses.
          if (refusals > 0 && !isConfirmation(mail)) {
            refusals--;
            callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
            return;
          }
          arrived.push(mail);
          if (!isConfirmation(mail)) messages.push(mail);
          options.onMessage?.(mail);
          for (const wake of waiters.splice(0)) wake();
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const taken = new Set<ParsedMail>();
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(to, timeoutMs = 5000, subject) {
      const deadline = Date.now() + timeoutMs;
      const wanted = (m: ParsedMail) => (subject ? subject.test(m.subject ?? '') : !isConfirmation(m));
      for (;;) {
        const found = arrived.find((m) => !taken.has(m) && recipients(m).includes(to.toLowerCase()) && wanted(m));
        if (found) {
          taken.add(found);
          return found;
        }
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
