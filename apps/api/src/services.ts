import type { Config } from './config.js';
import type { Db } from './db/connection.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createProfileService } from './modules/me/me.service.js';
import { createWorkspacesService } from './modules/workspaces/workspaces.service.js';
import type { Mailer } from './platform/mail.js';
import { createSessionStore } from './platform/sessions.js';

export interface ServiceDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
}

/** Wires every service once; routes reach them through `app.services`. */
export function createServices({ db, config, mailer }: ServiceDeps) {
  const sessions = createSessionStore(db, {
    idleMinutes: config.SESSION_IDLE_MINUTES,
    absoluteHours: config.SESSION_ABSOLUTE_HOURS,
  });
  const workspaces = createWorkspacesService(db);
  return {
    db,
    mailer,
    sessions,
    workspaces,
    auth: createAuthService({ db, config, mailer, sessions, workspaces }),
    profile: createProfileService({ db, workspaces }),
  };
}

export type Services = ReturnType<typeof createServices>;
