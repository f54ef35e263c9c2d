import { loadConfigFromProcess as loadConfig } from '../../config.js';
import { openDb } from '../../db/connection.js';
import { createAuditLogService } from './audit-log.service.js';

/**
 * `npm run audit:verify -- <workspace id>`: seals the workspace's newest audit records and walks its
 * hash chain; exits 1 when a record was edited, deleted or cut off (issue 34).
 */
const workspaceId = process.argv[2];
if (!workspaceId || !/^[0-9a-f-]{36}$/i.test(workspaceId)) {
  console.error('Usage: npm run audit:verify -- <workspace id>');
  process.exit(2);
}
const config = loadConfig();
const handle = openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
try {
  const result = await createAuditLogService({ db: handle.db }).verifyWorkspace(workspaceId);
  if (result.ok) console.log(`The audit log is intact: ${result.checked} records checked.`);
  else console.error(`The audit log is broken after ${result.checked} intact records. ${result.broken?.message}`);
  process.exitCode = result.ok ? 0 : 1;
} finally {
  await handle.close();
}
