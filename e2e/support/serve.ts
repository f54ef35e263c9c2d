// Starts a real SMTP catcher and then Sundial itself on a fresh embedded database, so journeys
// can follow links from e-mails the server really sent.
import fs from 'node:fs';
import path from 'node:path';
import { recipients, startInbox } from '../../apps/api/test/smtp.js';
import { MAIL_FILE, RUN_DIR } from './paths.js';

const dataDir = path.join(RUN_DIR, 'data');
fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(RUN_DIR, { recursive: true });
fs.writeFileSync(MAIL_FILE, '');

const inbox = await startInbox({
  onMessage: (mail) =>
    fs.appendFileSync(
      MAIL_FILE,
      `${JSON.stringify({ to: recipients(mail), subject: mail.subject, text: mail.text })}\n`,
    ),
});

process.env.DATA_DIR = dataDir;
process.env.SMTP_URL = inbox.url;
await import('../../apps/api/src/main.js');
