import path from 'node:path';

/** Each server port gets its own folder, so two journeys runs on one machine do not collide. */
export const RUN_DIR = path.resolve(import.meta.dirname, '../.run', process.env.E2E_PORT ?? '3210');
export const MAIL_FILE = path.join(RUN_DIR, 'mail.jsonl');
