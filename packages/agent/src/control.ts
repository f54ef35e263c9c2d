import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { readJson, writeFileAtomic } from './files.js';

/**
 * The state folder is how the commands talk to a running agent: `pause` and `resume` write
 * `pause.json`, which `run` reads every poll; `run` writes `status.json`, which `status` reads.
 */
const pauseFile = (dir: string) => path.join(dir, 'pause.json');
const statusFile = (dir: string) => path.join(dir, 'status.json');
const lockFile = (dir: string) => path.join(dir, 'run.lock');

const pause = z.object({ until: z.string().nullable() });

/** Pauses recording, for `minutes` or until `resume`. */
export function writePause(dir: string, until: Date | null): void {
  writeFileAtomic(pauseFile(dir), `${JSON.stringify({ until: until?.toISOString() ?? null })}\n`);
}

export function clearPause(dir: string): void {
  fs.rmSync(pauseFile(dir), { force: true });
}

/** Paused now: false, or the end of the pause (null: until resumed). */
export function readPause(dir: string, now: Date): false | { until: Date | null } {
  const parsed = pause.safeParse(readJson(pauseFile(dir)));
  if (!parsed.success) return false;
  const until = parsed.data.until ? new Date(parsed.data.until) : null;
  if (until && until <= now) return false;
  return { until };
}

export const agentStatus = z.object({
  pid: z.number(),
  state: z.enum(['starting', 'tracking', 'paused', 'offline', 'unpaired', 'waiting']),
  detail: z.string(),
  queued: z.number(),
  current: z.string().nullable(),
  lastUploadAt: z.string().nullable(),
  server: z.string(),
  updatedAt: z.string(),
});
export type AgentStatus = z.infer<typeof agentStatus>;

export function writeStatus(dir: string, status: AgentStatus): void {
  writeFileAtomic(statusFile(dir), `${JSON.stringify(status)}\n`);
}

/** The running agent's last status, or null when no agent runs on this state folder. */
export function readStatus(dir: string): AgentStatus | null {
  const parsed = agentStatus.safeParse(readJson(statusFile(dir)));
  if (!parsed.success || !isAlive(parsed.data.pid)) return null;
  return parsed.data;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One `run` per state folder (two would append to one queue). A lock left by a killed agent (its
 * process gone) is taken over. Answers a release function, or the pid of the agent that holds it.
 */
export function lockStateDir(dir: string): { release(): void } | { heldBy: number } {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = lockFile(dir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return { release: () => fs.rmSync(file, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
      if (Number.isSafeInteger(holder) && holder !== process.pid && isAlive(holder)) return { heldBy: holder };
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`Cannot lock ${dir}`);
}
