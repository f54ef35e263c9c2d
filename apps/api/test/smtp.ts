import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface Inbox {
  url: string;
  messages: ParsedMail[];
  /** The next message to an address, waiting for it to arrive. */
  waitFor(to: string, timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

/** The lower-cased addresses a message was sent to. */
export const recipients = (mail: ParsedMail): string[] =>
  [mail.to]
    .flat()
    .flatMap((a) => a?.value ?? [])
    .flatMap((v) => (v.address ? [v.address.toLowerCase()] : []));

/** A real SMTP server on a free local port that keeps what it receives. */
export async function startInbox(
  options: {
    onMessage?: (mail: ParsedMail) => void;
    /** Answers this many messages with a temporary failure (451) before accepting any. */
    refuseFirst?: number;
  } = {},
): Promise<Inbox> {
  const messages: ParsedMail[] = [];
  let refusals = options.refuseFirst ?? 0;
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      if (refusals > 0) {
        refusals--;
        stream.on('end', () =>
          callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 })),
        );
        stream.resume();
        return;
      }
      simpleParser(stream)
        .then((mail) => {
          messages.push(mail);
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
    async waitFor(to, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find((m) => !taken.has(m) && recipients(m).includes(to.toLowerCase()));
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
