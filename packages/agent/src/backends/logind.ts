import { runTool } from './exec.js';

/** After a failed look-up, logind is asked again only this much later (it may start late). */
const RETRY_MS = 60_000;

/**
 * The screen lock and session switch as systemd-logind knows them: `LockedHint` (set by the screen
 * locker) and `Active` (false when another session has the seat) of this graphical session, through
 * `loginctl`. Answers null where there is no logind, no session, or no answer: unknown, never a guess.
 */
export function createLogindLock(env: NodeJS.ProcessEnv = process.env): () => Promise<boolean | null> {
  let session: string | null = env.XDG_SESSION_ID ?? null;
  let failedAt = Number.NEGATIVE_INFINITY;

  async function findSession(): Promise<string | null> {
    // A systemd user service runs outside the session: take the user's graphical one.
    const uid = process.getuid?.();
    if (uid === undefined) return null;
    const shown = await runTool('loginctl', ['show-user', String(uid), '--property=Display', '--value'], { env });
    return shown.ok && shown.stdout.trim() ? shown.stdout.trim() : null;
  }

  return async () => {
    if (Date.now() - failedAt < RETRY_MS) return null;
    session ??= await findSession();
    const shown = session
      ? await runTool('loginctl', ['show-session', session, '--property=LockedHint', '--property=Active'], { env })
      : null;
    const properties = new Map(
      (shown?.ok ? shown.stdout : '').split('\n').map((line) => line.split('=', 2) as [string, string | undefined]),
    );
    const locked = properties.get('LockedHint');
    const active = properties.get('Active');
    if (locked === undefined && active === undefined) {
      failedAt = Date.now();
      return null;
    }
    return locked === 'yes' || active === 'no';
  };
}
