// Starts a real SMTP catcher and then Sundial itself on a fresh embedded database, so journeys
// can follow links from e-mails the server really sent.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
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
// Journeys run what production runs: the compiled API, built afresh from the sources (fast).
execFileSync(process.execPath, ['scripts/build-api.mjs'], { stdio: 'inherit' });
const compiled = path.resolve('apps/api/dist/main.mjs');
await import(pathToFileURL(compiled).href);
