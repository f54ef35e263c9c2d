import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDb } from '../src/db/connection.js';
import { migrateToLatest } from '../src/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PostgreSQL database that each test file's database is copied from ('' on PGlite). */
    pgTemplate: string;
  }
}

/**
 * Once per run, before any test file: with DATABASE_URL, a database migrated to the latest
 * schema, which openTestDb({ migrated: true }) copies (CREATE DATABASE ... TEMPLATE, ~50 ms) instead
 * of migrating each file's database afresh (~0.5 s each on an idle machine, several under load:
 * issue 31). Dropped when the run ends.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    project.provide('pgTemplate', '');
    return undefined;
  }
  const name = `sundial_template_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = openDb({ databaseUrl: url.toString(), poolSize: 1 });
  try {
    await migrateToLatest(handle.db);
  } finally {
    await handle.close();
  }
  project.provide('pgTemplate', name);
  return async () => {
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${name} with (force)`);
    await cleanup.end();
  };
}
