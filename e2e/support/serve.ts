// Starts a real SMTP catcher and then Sundial itself on a fresh database (embedded, or a new
// PostgreSQL database beside DATABASE_URL's when that is set), so journeys can follow links from
// e-mails the server really sent.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
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
      `${JSON.stringify({
        to: recipients(mail),
        subject: mail.subject,
        text: mail.text,
        // Scheduled reports arrive with a file; journeys read it back from here.
        attachments: mail.attachments.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          base64: a.content.toString('base64'),
        })),
      })}\n`,
    ),
});

process.env.DATA_DIR = dataDir;
if (process.env.DATABASE_URL) process.env.DATABASE_URL = await freshDatabase(process.env.DATABASE_URL);
process.env.SMTP_URL = inbox.url;
// Journeys run what production runs: the compiled API, built afresh from the sources (fast).
execFileSync(process.execPath, ['scripts/build-api.mjs'], { stdio: 'inherit' });
const compiled = path.resolve('apps/api/dist/main.mjs');
await import(pathToFileURL(compiled).href);

/**
 * Journeys never run on a shared database: one left behind by another checkout (or by a branch
 * with a migration this one lacks) stopped the server with "corrupted migrations".
 */
async function freshDatabase(adminUrl: string): Promise<string> {
  const name = `sundial_e2e_${process.env.E2E_PORT ?? '3210'}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
    // The journeys' database need not survive a crash: commits do not wait for the disk (issue 31).
    await admin.query(`alter database ${name} set synchronous_commit = off`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
