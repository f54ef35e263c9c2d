import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../db/connection.js';
import { prepared } from '../db/prepared.js';
import type { JobState } from '../db/tables/jobs.js';
import { newId } from './ids.js';

/**
 * The durable job runner (docs/decisions/0005-jobs.md). Jobs are rows in `jobs` on the app's own
 * database, PGlite or PostgreSQL alike: enqueued inside the caller's transaction, claimed by one
 * worker with `for update skip locked` under a lease, retried with exponential backoff and kept
 * as dead letters after their last attempt. Cron schedules live in `job_schedules`; the process
 * that moves a schedule's `next_run_at` forward (compare-and-set) enqueues that slot's job, so a
 * slot runs once however many processes tick.
 */

/** A kind of job: its name and the schema of its payload, checked on enqueue and again on run. */
export interface JobDefinition<T> {
  readonly name: string;
  readonly schema: z.ZodType<T>;
}

export function defineJob<S extends z.ZodType>(name: string, schema: S): JobDefinition<z.output<S>> {
  return { name, schema: schema as z.ZodType<z.output<S>> };
}

export interface EnqueueOptions {
  /** Not before this instant (default: now). */
  runAt?: Date;
  /** While a job with this name and key is queued or running, enqueueing another does nothing. */
  singletonKey?: string;
  /** Runs before it is dead-lettered (default: the handler's, else 5). */
  maxAttempts?: number;
}

export interface HandlerOptions {
  /** Runs before the job is dead-lettered (default 5). */
  maxAttempts?: number;
  /** Wait before the first retry; it doubles on each further one (default 10 s). */
  backoffMs?: number;
  /** The longest wait between two attempts (default 1 hour). */
  maxBackoffMs?: number;
  /**
   * How many of these jobs one process runs at once (default 1). For many independent jobs that
   * mostly wait on the network, such as webhook deliveries; every other job still runs alone.
   */
  parallel?: number;
}

export interface JobContext {
  id: string;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
  /** The runner's clock at the start of this run. */
  now: Date;
}

export type JobHandler<T> = (payload: T, context: JobContext) => Promise<void>;

export interface JobRow {
  id: string;
  name: string;
  payload: unknown;
  state: JobState;
  attempts: number;
  maxAttempts: number;
  runAt: Date;
  lastError: string | null;
  finishedAt: Date | null;
}

export interface JobRunnerOptions {
  db: Db;
  log?: FastifyBaseLogger;
  /** How long the loop sleeps when nothing is due (default 1 s). */
  pollMs?: number;
  /** How long a claimed job is its worker's; past it, another worker may run it again (default 5 min). */
  lockMs?: number;
  /**
   * While a handler runs, its worker renews the lease this often (default a third of `lockMs`), so
   * a job longer than the lease (a large export, an import) is not run a second time beside it;
   * only a worker that stopped answering lets its lease lapse.
   */
  renewMs?: number;
  /** The clock; tests pass their own instead of waiting. */
  now?: () => Date;
  /** Names this worker in `locked_by` (default host:pid:random). */
  workerId?: string;
}

export interface JobRunner {
  /** Declares how a kind of job runs; a worker claims only jobs it has a handler for. */
  register<T>(job: JobDefinition<T>, handler: JobHandler<T>, options?: HandlerOptions): void;
  /**
   * Enqueues `job` at each slot of a five-field cron expression (UTC); a registered handler is
   * required. A slot missed while no process ran is enqueued once, late.
   */
  schedule<T>(job: JobDefinition<T>, cron: string, payload: T): void;
  /**
   * Queues a job through `db`, which may be the caller's transaction: then the job exists only
   * if that transaction commits. Answers the job's id, or undefined when a singleton already waits.
   */
  enqueue<T>(db: Db, job: JobDefinition<T>, payload: T, options?: EnqueueOptions): Promise<string | undefined>;
  /** Starts the polling loop (once). */
  start(): void;
  /** Stops the loop, letting the job under way finish. */
  stop(): Promise<void>;
  /** Polls at once instead of at the end of the current sleep (after enqueueing outside a transaction). */
  wake(): void;
  /**
   * Enqueues due schedule slots and runs every due job now, one after another; answers how many ran.
   * With `schedules: false` it runs only the jobs already queued (a test that attributes each write to
   * the request that queued it must not see a cron slot's job come round on the wall clock).
   */
  drain(options?: { schedules?: boolean }): Promise<number>;
  /** Jobs by name and state, newest first: dead letters, for instance. */
  list(filter?: { name?: string; state?: JobState; limit?: number }): Promise<JobRow[]>;
  /** Queues a dead job again with a fresh set of attempts. */
  retry(id: string): Promise<boolean>;
  /** Deletes finished jobs after a day and dead letters after 30 days. */
  purgeFinished(now?: Date): Promise<void>;
}

const DEFAULT_ATTEMPTS = 5;

/**
 * A job's insert, built and compiled once: every time write queues one (the budget check) in its
 * transaction. A singleton already queued or running keeps its row (nothing is inserted).
 */
const insertJob = prepared(
  ['id', 'name', 'payload', 'maxAttempts', 'runAt', 'singletonKey'],
  (
    db,
    v: { id: string; name: string; payload: string; maxAttempts: number; runAt: Date; singletonKey: string | null },
  ) =>
    db
      .insertInto('jobs')
      .values({
        id: v.id,
        name: v.name,
        payload: v.payload,
        max_attempts: v.maxAttempts,
        run_at: v.runAt,
        singleton_key: v.singletonKey,
      })
      .onConflict((oc) =>
        oc
          .columns(['name', 'singleton_key'])
          .where(sql<boolean>`singleton_key is not null and state in ('queued', 'running')`)
          .doNothing(),
      )
      .returning('id'),
);
const DAY_MS = 86_400_000;
/** At most this many jobs per drain, so a handler that keeps queueing due work cannot spin forever. */
const DRAIN_LIMIT = 1000;

interface Registered {
  handler: JobHandler<unknown>;
  schema: z.ZodType<unknown>;
  maxAttempts: number;
  backoffMs: number;
  maxBackoffMs: number;
  parallel: number;
}

interface Scheduled {
  cron: Cron;
  pattern: string;
  job: JobDefinition<unknown>;
  payload: unknown;
}

interface Claimed {
  id: string;
  name: string;
  payload: unknown;
  attempts: number;
  max_attempts: number;
}

/** The wait before attempt `attempt + 1`: backoffMs, doubling, capped. */
export const backoffDelay = (attempt: number, backoffMs: number, maxBackoffMs: number): number =>
  Math.min(maxBackoffMs, backoffMs * 2 ** Math.max(0, attempt - 1));

const messageOf = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).slice(0, 2000) || 'failed';

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { db, log } = options;
  const pollMs = options.pollMs ?? 1000;
  const lockMs = options.lockMs ?? 5 * 60_000;
  const renewMs = options.renewMs ?? Math.max(1, Math.floor(lockMs / 3));
  const clock = options.now ?? (() => new Date());
  const workerId = options.workerId ?? `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const handlers = new Map<string, Registered>();
  const schedules = new Map<string, Scheduled>();
  let schedulesSaved = false;
  let started = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  /** A wake() that came while a poll was under way: poll again straight after it. */
  let woken = false;
  /** The loop and drain() take turns, so this process runs one job at a time. */
  let turn: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const next = turn.then(work, work);
    turn = next.catch(() => undefined);
    return next;
  };

  const runner: JobRunner = {
    register(job, handler, handlerOptions = {}) {
      if (handlers.has(job.name)) throw new Error(`job ${job.name} is registered twice`);
      handlers.set(job.name, {
        handler: handler as JobHandler<unknown>,
        schema: job.schema as z.ZodType<unknown>,
        maxAttempts: handlerOptions.maxAttempts ?? DEFAULT_ATTEMPTS,
        backoffMs: handlerOptions.backoffMs ?? 10_000,
        maxBackoffMs: handlerOptions.maxBackoffMs ?? 3_600_000,
        parallel: Math.max(1, handlerOptions.parallel ?? 1),
      });
    },

    schedule(job, pattern, payload) {
      if (!handlers.has(job.name)) throw new Error(`job ${job.name} is scheduled before it is registered`);
      job.schema.parse(payload);
      const cron = new Cron(pattern, { timezone: 'UTC', paused: true });
      schedules.set(job.name, { cron, pattern, job: job as JobDefinition<unknown>, payload });
      schedulesSaved = false;
    },

    async enqueue(target, job, payload, enqueueOptions = {}) {
      const parsed = job.schema.parse(payload);
      const maxAttempts = enqueueOptions.maxAttempts ?? handlers.get(job.name)?.maxAttempts ?? DEFAULT_ATTEMPTS;
      const [row] = await insertJob(target, {
        id: newId(),
        name: job.name,
        payload: JSON.stringify(parsed ?? {}),
        maxAttempts,
        runAt: enqueueOptions.runAt ?? clock(),
        singletonKey: enqueueOptions.singletonKey ?? null,
      });
      return row?.id;
    },

    start() {
      if (started) return;
      started = true;
      stopped = false;
      arm(0);
    },

    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await turn;
    },

    wake() {
      if (!started || stopped) return;
      if (timer) arm(0);
      else woken = true;
    },

    drain: (drainOptions = {}) => exclusive(() => runDue(drainOptions.schedules ?? true)),

    async list(filter = {}) {
      const rows = await db
        .selectFrom('jobs')
        .select(['id', 'name', 'payload', 'state', 'attempts', 'max_attempts', 'run_at', 'last_error', 'finished_at'])
        .$if(filter.name !== undefined, (q) => q.where('name', '=', filter.name ?? ''))
        .$if(filter.state !== undefined, (q) => q.where('state', '=', filter.state ?? 'queued'))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(filter.limit ?? 100)
        .execute();
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        payload: r.payload,
        state: r.state,
        attempts: r.attempts,
        maxAttempts: r.max_attempts,
        runAt: new Date(r.run_at),
        lastError: r.last_error,
        finishedAt: r.finished_at ? new Date(r.finished_at) : null,
      }));
    },

    async retry(id) {
      const result = await db
        .updateTable('jobs')
        .set({ state: 'queued', attempts: 0, run_at: clock(), finished_at: null, locked_by: null, locked_until: null })
        .where('id', '=', id)
        .where('state', '=', 'dead')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async purgeFinished(now = clock()) {
      await db
        .deleteFrom('jobs')
        .where((eb) =>
          eb.or([
            eb.and([eb('state', '=', 'done'), eb('finished_at', '<', new Date(now.getTime() - DAY_MS))]),
            eb.and([eb('state', '=', 'dead'), eb('finished_at', '<', new Date(now.getTime() - 30 * DAY_MS))]),
          ]),
        )
        .execute();
    },
  };
  return runner;

  function arm(delay: number): void {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      exclusive(() => runDue())
        .catch((error: unknown) => log?.warn({ err: error }, 'job runner poll failed'))
        .finally(() => {
          if (!stopped && !timer) arm(woken ? 0 : pollMs);
          woken = false;
        });
    }, delay);
    timer.unref?.();
  }

  /** Enqueues due schedule slots, then runs due jobs until none is left (or the runner stops). */
  async function runDue(schedulesToo = true): Promise<number> {
    if (handlers.size === 0) return 0;
    if (schedulesToo) await enqueueDueSlots();
    let ran = 0;
    // Jobs of a kind that may run side by side are started and left running, up to their kind's
    // number; the rest run one at a time. The drain ends when all it started have finished.
    const running = new Map<string, Set<Promise<void>>>();
    while (ran < DRAIN_LIMIT && !(stopped && started)) {
      const claimed = await claim();
      if (!claimed) break;
      ran++;
      const parallel = handlers.get(claimed.name)?.parallel ?? 1;
      if (parallel === 1) {
        await run(claimed);
        continue;
      }
      const ofKind = running.get(claimed.name) ?? new Set<Promise<void>>();
      running.set(claimed.name, ofKind);
      const job: Promise<void> = run(claimed)
        .catch((error: unknown) => log?.warn({ err: error, jobId: claimed.id, job: claimed.name }, 'job run failed'))
        .finally(() => ofKind.delete(job));
      ofKind.add(job);
      if (ofKind.size >= parallel) await Promise.race(ofKind);
    }
    await Promise.all([...running.values()].flatMap((ofKind) => [...ofKind]));
    return ran;
  }

  async function enqueueDueSlots(): Promise<void> {
    if (schedules.size === 0) return;
    const now = clock();
    if (!schedulesSaved) {
      for (const { job, cron, pattern } of schedules.values()) {
        // A new schedule, or one whose expression changed, starts at its next slot from now.
        await db
          .insertInto('job_schedules')
          .values({ name: job.name, cron: pattern, next_run_at: nextSlot(cron, now) })
          .onConflict((oc) =>
            oc
              .column('name')
              .doUpdateSet({ cron: pattern, next_run_at: nextSlot(cron, now) })
              .where('job_schedules.cron', '!=', pattern),
          )
          .execute();
      }
      schedulesSaved = true;
    }
    const due = await db
      .selectFrom('job_schedules')
      .select(['name', 'next_run_at'])
      .where('name', 'in', [...schedules.keys()])
      .where('next_run_at', '<=', now)
      .execute();
    for (const slot of due) {
      const scheduled = schedules.get(slot.name);
      if (!scheduled) continue;
      await db.transaction().execute(async (trx) => {
        const moved = await trx
          .updateTable('job_schedules')
          .set({ next_run_at: nextSlot(scheduled.cron, now), last_run_at: slot.next_run_at })
          .where('name', '=', slot.name)
          .where('next_run_at', '=', slot.next_run_at)
          .executeTakeFirst();
        // Another process moved it first: that one enqueued this slot.
        if (Number(moved.numUpdatedRows) === 0) return;
        await runner.enqueue(trx, scheduled.job, scheduled.payload, {
          singletonKey: `slot:${new Date(slot.next_run_at).toISOString()}`,
        });
      });
    }
  }

  /** Takes one due job (or one whose worker's lease lapsed) for this worker. */
  async function claim(): Promise<Claimed | undefined> {
    const now = clock();
    const names = [...handlers.keys()];
    const { rows } = await sql<Claimed>`
      update jobs set state = 'running', attempts = attempts + 1, locked_by = ${workerId},
        locked_until = ${new Date(now.getTime() + lockMs)}
      where id = (
        select id from jobs
        where name in (${sql.join(names)})
          and ((state = 'queued' and run_at <= ${now}) or (state = 'running' and locked_until <= ${now}))
        order by run_at, id
        limit 1
        for update skip locked
      )
      returning id, name, payload, attempts, max_attempts
    `.execute(db);
    return rows[0];
  }

  async function run(job: Claimed): Promise<void> {
    const registered = handlers.get(job.name);
    if (!registered) return;
    const attempt = Number(job.attempts);
    const maxAttempts = Number(job.max_attempts);
    if (attempt > maxAttempts) {
      await finish(job.id, 'dead', 'its worker stopped during the last attempt');
      log?.error({ jobId: job.id, job: job.name }, 'job dead-lettered: its worker stopped during the last attempt');
      return;
    }
    const parsed = registered.schema.safeParse(job.payload);
    if (!parsed.success) {
      await finish(job.id, 'dead', `invalid payload: ${parsed.error.message}`);
      log?.error({ jobId: job.id, job: job.name }, 'job dead-lettered: invalid payload');
      return;
    }
    const now = clock();
    const lease = renewLease(job.id);
    try {
      await registered.handler(parsed.data, { id: job.id, attempt, maxAttempts, now });
      await lease.stop();
      await finish(job.id, 'done', null);
    } catch (error) {
      await lease.stop();
      const reason = messageOf(error);
      if (attempt >= maxAttempts) {
        await finish(job.id, 'dead', reason);
        log?.error({ err: error, jobId: job.id, job: job.name, attempt }, 'job dead-lettered after its last attempt');
        return;
      }
      const retryAt = new Date(
        clock().getTime() + backoffDelay(attempt, registered.backoffMs, registered.maxBackoffMs),
      );
      await db
        .updateTable('jobs')
        .set({ state: 'queued', run_at: retryAt, last_error: reason, locked_by: null, locked_until: null })
        .where('id', '=', job.id)
        .where('locked_by', '=', workerId)
        .execute();
      log?.warn({ err: error, jobId: job.id, job: job.name, attempt, retryAt }, 'job failed; it will be retried');
    }
  }

  /**
   * Moves the job's lease forward every `renewMs` while its handler runs, as long as this worker
   * still holds it (a worker that lost it to another after a stall does not take it back).
   */
  function renewLease(id: string): { stop(): Promise<void> } {
    let renewing: Promise<unknown> = Promise.resolve();
    const beat = setInterval(() => {
      renewing = renewing.then(() =>
        db
          .updateTable('jobs')
          .set({ locked_until: new Date(clock().getTime() + lockMs) })
          .where('id', '=', id)
          .where('locked_by', '=', workerId)
          .where('state', '=', 'running')
          .execute()
          .catch((error: unknown) => log?.warn({ err: error, jobId: id }, 'job lease renewal failed')),
      );
    }, renewMs);
    beat.unref?.();
    return {
      async stop() {
        clearInterval(beat);
        await renewing;
      },
    };
  }

  async function finish(id: string, state: 'done' | 'dead', lastError: string | null): Promise<void> {
    await db
      .updateTable('jobs')
      .set({
        state,
        finished_at: clock(),
        locked_by: null,
        locked_until: null,
        ...(lastError === null ? {} : { last_error: lastError }),
      })
      .where('id', '=', id)
      .where('locked_by', '=', workerId)
      .execute();
  }
}

/** The first slot of a cron expression after `after`. */
function nextSlot(cron: Cron, after: Date): Date {
  const next = cron.nextRun(after);
  if (!next) throw new Error(`cron ${cron.getPattern()} has no next run`);
  return next;
}
