import { buildApp } from './app.js';
import { ConfigError, loadConfigFromProcess } from './config.js';
import { openDb } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfigFromProcess>;
  try {
    config = loadConfigFromProcess();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const handle = openDb({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolSize: config.DATABASE_POOL_SIZE,
    heavyConnections: config.DATABASE_HEAVY_CONNECTIONS,
  });
  const applied = await migrateToLatest(handle.db);
  const app = await buildApp({ config, db: handle.db });
  app.log.info(
    { database: handle.kind, migrations: applied },
    handle.kind === 'pglite' ? `embedded database in ${config.DATA_DIR}` : 'PostgreSQL',
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000).unref();
    try {
      await app.close();
      await handle.close();
    } finally {
      clearTimeout(timer);
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info(`Sundial is ready at ${config.publicUrl}`);
  console.log(`\n  Sundial is running at ${config.publicUrl}\n`);
}

await main();
