import fs from 'node:fs';
import { MAIL_FILE } from './paths.js';

export interface CaughtMail {
  to: string[];
  subject: string;
  text: string;
  /** The message's files, their bytes in base64. */
  attachments: { filename?: string; contentType: string; base64: string }[];
}

/** The newest e-mail to an address that the server really sent over SMTP. */
export async function waitForMail(to: string, timeoutMs = 10_000): Promise<CaughtMail> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const lines = fs.existsSync(MAIL_FILE) ? fs.readFileSync(MAIL_FILE, 'utf8').trim().split('\n').filter(Boolean) : [];
    const found = lines
      .map((line) => JSON.parse(line) as CaughtMail)
      .reverse()
      .find((mail) => mail.to.some((address) => address.toLowerCase() === to.toLowerCase()));
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`No e-mail to ${to} within ${timeoutMs} ms`);
}
