import fs from 'node:fs';
import { MAIL_FILE } from './paths.js';

export interface CaughtMail {
  to: string[];
  subject: string;
  text: string;
  /** The message's files, their bytes in base64. */
  attachments: { filename?: string; contentType: string; base64: string }[];
}

/** The subject of the link confirming an address that every sign-up is sent (docs/decisions/0014). */
export const CONFIRMATION_SUBJECT = 'Confirm your e-mail address for Sundial';

/**
 * The newest e-mail to an address that the server really sent over SMTP, whose subject matches;
 * without `subject`, any but a sign-up's confirmation link.
 */
export async function waitForMail(to: string, timeoutMs = 10_000, subject?: RegExp): Promise<CaughtMail> {
  const wanted = (mail: CaughtMail) => (subject ? subject.test(mail.subject) : mail.subject !== CONFIRMATION_SUBJECT);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const lines = fs.existsSync(MAIL_FILE) ? fs.readFileSync(MAIL_FILE, 'utf8').trim().split('\n').filter(Boolean) : [];
    const found = lines
      .map((line) => JSON.parse(line) as CaughtMail)
      .reverse()
      .find((mail) => wanted(mail) && mail.to.some((address) => address.toLowerCase() === to.toLowerCase()));
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`No e-mail to ${to} within ${timeoutMs} ms`);
}
