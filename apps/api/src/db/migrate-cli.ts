import { loadConfigFromProcess as loadConfig } from '../config.js';
import { openDb } from './connection.js';
import { migrateToLatest } from './migrate.js';

const config = loadConfig();
const handle = openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
const applied = await migrateToLatest(handle.db);
console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Already up to date.');
await handle.close();
