import {
  MONEY_MEASURES,
  reportScheduleMessages as msg,
  nextSendAt,
  REPORT_KINDS,
  type ReportKind,
  type ReportScheduleBody,
  type ReportScheduleEnvelope,
  type ReportScheduleView,
  reportScheduleBody,
  type SavedReportView,
} from '@sundial/core';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/connection.js';
import type { ReportScheduleRow } from '../../db/tables/report-schedules.js';
import { allows, assertFeature } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import { AppError, forbidden, notFound, validationError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { defineJob, type JobRunner } from '../../platform/jobs.js';
import type { Mailer } from '../../platform/mail.js';
import type { ExportsService } from '../exports/exports.service.js';
import type { SavedReportsService } from '../saved-reports/saved-reports.service.js';
import { usersService } from '../users/users.service.js';
import type { WorkspacesService } from '../workspaces/workspaces.service.js';
import { reportSchedulesRepository as repo } from './report-schedules.repository.js';

/** Finds due schedules and queues their sends; every minute, on whichever process ticks first. */
export const reportSchedulesTickJob = defineJob('report-schedules.tick', z.object({}));
/** One send of one schedule: the slot is the due instant, or "manual:<id>" for "send now". */
export const reportScheduleSendJob = defineJob(
  'report-schedules.send',
  z.object({ workspaceId: z.uuid(), scheduleId: z.uuid(), slot: z.string().max(100) }),
);

/** Sends retried before a schedule is marked failed: 1, 2, 4 minutes apart (about 7 minutes in all). */
export const SEND_ATTEMPTS = 4;
const SEND_BACKOFF_MS = 60_000;
/** Due schedules one tick queues; the rest wait for the next minute. */
const TICK_BATCH = 200;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** "Weekly hours: 2026-11-16 – 2026-11-22", the range read from the export's file name. */
function subjectOf(name: string, fileName: string): string {
  const range = /(\d{4}-\d{2}-\d{2})-(\d{4}-\d{2}-\d{2})\.\w+$/.exec(fileName);
  return range ? `${name}: ${range[1]} – ${range[2]}` : name;
}

/** A reason the send cannot succeed by trying again: recorded, the schedule marked failed, nothing sent. */
class SendRefused extends Error {}

function present(row: ReportScheduleRow): ReportScheduleView {
  return {
    id: row.id,
    savedReportId: row.saved_report_id,
    frequency: row.frequency,
    weekday: row.weekday,
    monthDay: row.month_day,
    hour: row.hour,
    timeZone: row.time_zone,
    format: row.format,
    recipientUserIds: row.recipient_user_ids,
    recipientEmails: row.recipient_emails,
    state: row.state,
    nextRunAt: row.state === 'active' ? iso(row.next_run_at) : null,
    lastSentAt: iso(row.last_sent_at),
    lastError: row.last_error,
    failedAttempts: row.failed_attempts,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

const sendTimeOf = (row: Pick<ReportScheduleRow, 'frequency' | 'weekday' | 'month_day' | 'hour' | 'time_zone'>) => ({
  frequency: row.frequency,
  weekday: row.weekday,
  monthDay: row.month_day,
  hour: row.hour,
  timeZone: row.time_zone,
});

/**
 * E-mail schedules of saved reports. Only a saved report's owner schedules it (guests may not:
 * they cannot see whom to send it to). At each send the report is exported as its owner with the
 * owner's access of that moment, its preset resolved in the schedule's zone; an owner who left,
 * a report they no longer reach or figures they may no longer see stop the send (recorded as the
 * schedule's error, nothing mailed). A refused SMTP delivery is retried with backoff, then the
 * schedule is marked failed until it is edited or resumed.
 */
export function createReportSchedulesService(deps: {
  db: Db;
  jobs: JobRunner;
  mailer: Mailer;
  savedReports: Pick<SavedReportsService, 'get'>;
  exports: Pick<ExportsService, 'export'>;
  workspaces: Pick<WorkspacesService, 'getMembership'>;
  publicUrl: string;
  log?: FastifyBaseLogger;
}) {
  const { db, jobs } = deps;

  /** The actor's own saved report; 404 when they do not see it, 403 when it is someone else's. */
  async function ownReport(actor: Actor, savedReportId: string): Promise<SavedReportView> {
    if (!allows(actor.membership, 'saved_reports:schedule')) throw forbidden();
    const report = await deps.savedReports.get(actor, savedReportId);
    if (!report.canEdit) throw new AppError('forbidden', msg.onlyOwner, { status: 403 });
    return report;
  }

  async function getSchedule(actor: Actor, savedReportId: string, tx: Db = db): Promise<ReportScheduleRow> {
    const row = await repo.findByReport(tx, actor.membership.workspace.id, savedReportId);
    if (!row) throw notFound(msg.notFound);
    return row;
  }

  /** The active member behind a user id, or undefined. */
  async function activeMember(workspaceId: string, userId: string): Promise<Actor | undefined> {
    const user = await usersService.findById(db, userId);
    if (!user) return undefined;
    const membership = await deps.workspaces.getMembership(workspaceId, userId).catch(() => undefined);
    if (membership?.status !== 'active') return undefined;
    return { user, userId, membership, via: 'token' };
  }

  /** The export's query string: the saved report's, with its page's defaults and the schedule's zone. */
  function exportParams(report: SavedReportView, row: ReportScheduleRow, withoutMoney: boolean): URLSearchParams {
    const params = new URLSearchParams(report.query);
    const spec = REPORT_KINDS[report.kind as ReportKind] ?? REPORT_KINDS.summary;
    params.set('kind', spec.engine);
    params.set('format', row.format);
    params.set('title', report.name.slice(0, 80));
    params.set('timeZone', row.time_zone);
    if (spec.engine === 'summary') {
      if (!params.get('groupBy')) params.set('groupBy', spec.groupBy.join(','));
      if (!params.get('measures')) params.set('measures', spec.measures.join(','));
    }
    if (spec.engine === 'matrix') {
      if (!params.get('rows')) params.set('rows', spec.rows);
      if (!params.get('columns')) params.set('columns', spec.columns);
    }
    if (withoutMoney) {
      const kept = (params.get('measures') ?? '').split(',').filter((m) => m && !MONEY_MEASURES.includes(m as never));
      params.set('measures', kept.length ? kept.join(',') : 'trackedSeconds');
    }
    params.delete('cursor');
    return params;
  }

  /** The file as the owner sees the report now; a page default with money they may not see is left out. */
  async function produce(owner: Actor, report: SavedReportView, row: ReportScheduleRow) {
    const savedMeasures = new URLSearchParams(report.query).get('measures');
    const read = async (withoutMoney: boolean) => {
      const file = await deps.exports.export(owner, exportParams(report, row, withoutMoney));
      const chunks: Buffer[] = [];
      for await (const chunk of file.stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      return { ...file, content: Buffer.concat(chunks) };
    };
    try {
      return await read(false);
    } catch (error) {
      if (error instanceof AppError && error.code === 'money_forbidden' && !savedMeasures) return read(true);
      throw error;
    }
  }

  async function recipientsOf(row: ReportScheduleRow): Promise<string[]> {
    const emails = new Set(row.recipient_emails);
    for (const userId of row.recipient_user_ids) {
      const member = await activeMember(row.workspace_id, userId);
      if (member) emails.add(member.user.email.toLowerCase());
    }
    return [...emails];
  }

  async function fail(row: ReportScheduleRow, reason: string, failed: boolean, attempts: number): Promise<void> {
    await repo.update(db, row.workspace_id, row.id, {
      last_error: reason.slice(0, 1000),
      failed_attempts: attempts,
      ...(failed ? { state: 'failed' as const } : {}),
    });
  }

  /** One send: the job's handler. Throws (for the runner to retry) only when the mail server refused it. */
  async function send(
    payload: z.output<typeof reportScheduleSendJob.schema>,
    context: { attempt: number; maxAttempts: number; now: Date },
  ): Promise<void> {
    const row = await repo.find(db, payload.workspaceId, payload.scheduleId);
    const manual = payload.slot.startsWith('manual:');
    // Deleted, paused or failed since it was queued, or sent by an attempt whose worker stopped before it could say so.
    if (!row || (!manual && row.state !== 'active') || row.last_sent_slot === payload.slot) return;
    let message: Parameters<Mailer['sendNow']>[0];
    try {
      const owner = await activeMember(row.workspace_id, row.owner_user_id);
      if (!owner) throw new SendRefused('Not sent: the owner of this schedule is no longer an active member.');
      if (!allows(owner.membership, 'saved_reports:schedule'))
        throw new SendRefused('Not sent: the owner’s role may no longer schedule reports.');
      const report = await deps.savedReports.get(owner, row.saved_report_id).catch(() => undefined);
      if (!report) throw new SendRefused('Not sent: the saved report is no longer available to its owner.');
      const file = await produce(owner, report, row).catch((error: unknown) => {
        if (error instanceof AppError && error.status < 500) throw new SendRefused(`Not sent: ${error.message}`);
        throw error;
      });
      const to = await recipientsOf(row);
      if (to.length === 0) throw new SendRefused('Not sent: none of the recipients is an active member any more.');
      const workspace = owner.membership.workspace.name;
      message = {
        to,
        subject: subjectOf(report.name, file.fileName),
        text: [
          `${owner.user.name || owner.user.email} sends you the report “${report.name}” of ${workspace}, attached as ${file.fileName}.`,
          '',
          `Open it in Sundial: ${deps.publicUrl}/homepage/reports/${report.kind}${report.query ? `?${report.query}` : ''}`,
          'You receive it because its owner scheduled it for you; they can change or stop the schedule from their saved reports.',
        ].join('\n'),
        attachments: [{ filename: file.fileName, contentType: file.contentType, content: file.content }],
      };
    } catch (error) {
      if (!(error instanceof SendRefused)) throw error;
      await fail(row, error.message, true, row.failed_attempts + 1);
      deps.log?.warn({ scheduleId: row.id, reason: error.message }, 'scheduled report not sent');
      return;
    }
    try {
      await deps.mailer.sendNow(message);
    } catch (error) {
      const reason = `Sending failed (attempt ${context.attempt} of ${context.maxAttempts}): ${error instanceof Error ? error.message : String(error)}`;
      await fail(row, reason, context.attempt >= context.maxAttempts, context.attempt);
      throw error;
    }
    await repo.update(db, row.workspace_id, row.id, {
      last_sent_at: context.now,
      last_sent_slot: payload.slot,
      last_error: null,
      failed_attempts: 0,
    });
  }

  /** Queues the send of every due schedule once: the compare-and-set on next_run_at decides which process does. */
  async function tick(now: Date): Promise<number> {
    let queued = 0;
    for (const row of await repo.due(db, now, TICK_BATCH)) {
      const slot = new Date(row.next_run_at);
      // Missed slots (no process ran) are sent once, late; the next is counted from now.
      const next = nextSendAt(sendTimeOf(row), now);
      await db.transaction().execute(async (tx) => {
        if (!(await repo.claimSlot(tx, row, slot, next))) return;
        const slotKey = slot.toISOString();
        await jobs.enqueue(
          tx,
          reportScheduleSendJob,
          { workspaceId: row.workspace_id, scheduleId: row.id, slot: slotKey },
          { singletonKey: `${row.id}:${slotKey}` },
        );
        queued++;
      });
    }
    return queued;
  }

  return {
    /** Declares the tick (every minute) and the send job on the runner. */
    registerJobs(): void {
      jobs.register(reportScheduleSendJob, send, { maxAttempts: SEND_ATTEMPTS, backoffMs: SEND_BACKOFF_MS });
      jobs.register(reportSchedulesTickJob, async (_payload, { now }) => {
        await tick(now);
      });
      jobs.schedule(reportSchedulesTickJob, '* * * * *', {});
    },

    tick,

    /** The saved report's schedule, or null: its owner only. */
    async get(actor: Actor, savedReportId: string): Promise<ReportScheduleEnvelope> {
      await ownReport(actor, savedReportId);
      const row = await repo.findByReport(db, actor.membership.workspace.id, savedReportId);
      return { schedule: row ? present(row) : null };
    },

    /**
     * Creates or replaces the schedule of one of the actor's saved reports (422 with the field for
     * a bad day, hour, zone or recipient). Editing a failed schedule makes it active again; a
     * paused one stays paused. The zone is the owner's unless given.
     */
    async save(
      actor: Actor,
      savedReportId: string,
      input: ReportScheduleBody,
      now = new Date(),
    ): Promise<ReportScheduleView> {
      // A scheduled report is an export mailed as an attachment: Basic.
      assertFeature(actor, 'export');
      const report = await ownReport(actor, savedReportId);
      const body = reportScheduleBody.parse(input);
      const workspaceId = actor.membership.workspace.id;
      for (const userId of body.recipientUserIds)
        if (!(await activeMember(workspaceId, userId))) throw validationError({ recipientUserIds: msg.unknownMember });
      return db.transaction().execute(async (tx) => {
        const existing = await repo.findByReport(tx, workspaceId, report.id);
        const timeZone = body.timeZone ?? existing?.time_zone ?? actor.user.time_zone;
        const fields = {
          frequency: body.frequency,
          weekday: body.weekday,
          month_day: body.monthDay,
          hour: body.hour,
          time_zone: timeZone,
        };
        await repo.upsert(tx, {
          id: existing?.id ?? newId(),
          workspace_id: workspaceId,
          saved_report_id: report.id,
          owner_user_id: actor.userId,
          ...fields,
          format: body.format,
          recipient_user_ids: body.recipientUserIds,
          recipient_emails: body.recipientEmails,
          next_run_at: nextSendAt(sendTimeOf(fields), now),
        });
        const row = await getSchedule(actor, report.id, tx);
        await audit(tx, {
          action: 'report_schedule.saved',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: row.id,
          detail: {
            savedReportId: report.id,
            frequency: row.frequency,
            format: row.format,
            recipients: row.recipient_user_ids.length + row.recipient_emails.length,
          },
        });
        return present(row);
      });
    },

    /** Stops sending until resumed. */
    async pause(actor: Actor, savedReportId: string): Promise<ReportScheduleView> {
      return setState(actor, savedReportId, 'paused');
    },

    /** Sends again from the next slot after now; a failed schedule starts afresh. */
    async resume(actor: Actor, savedReportId: string, now = new Date()): Promise<ReportScheduleView> {
      assertFeature(actor, 'export');
      return setState(actor, savedReportId, 'active', now);
    },

    async remove(actor: Actor, savedReportId: string): Promise<void> {
      await ownReport(actor, savedReportId);
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        const row = await getSchedule(actor, savedReportId, tx);
        await repo.remove(tx, workspaceId, row.id);
        await audit(tx, {
          action: 'report_schedule.deleted',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: row.id,
          detail: { savedReportId },
        });
      });
    },

    /** Queues one send at once, whatever the schedule's state; its next slot stays as it is. */
    async sendNow(actor: Actor, savedReportId: string): Promise<{ queued: true }> {
      assertFeature(actor, 'export');
      await ownReport(actor, savedReportId);
      const row = await getSchedule(actor, savedReportId);
      await jobs.enqueue(db, reportScheduleSendJob, {
        workspaceId: row.workspace_id,
        scheduleId: row.id,
        slot: `manual:${newId()}`,
      });
      jobs.wake();
      return { queued: true };
    },
  };

  async function setState(
    actor: Actor,
    savedReportId: string,
    state: 'active' | 'paused',
    now = new Date(),
  ): Promise<ReportScheduleView> {
    await ownReport(actor, savedReportId);
    const workspaceId = actor.membership.workspace.id;
    return db.transaction().execute(async (tx) => {
      const row = await getSchedule(actor, savedReportId, tx);
      if (state === 'paused' && row.state !== 'paused') await repo.update(tx, workspaceId, row.id, { state });
      if (state === 'active')
        await repo.update(tx, workspaceId, row.id, {
          state,
          next_run_at: nextSendAt(sendTimeOf(row), now),
          failed_attempts: 0,
          last_error: null,
        });
      if (row.state !== state)
        await audit(tx, {
          action: state === 'paused' ? 'report_schedule.paused' : 'report_schedule.resumed',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: row.id,
          detail: { savedReportId },
        });
      return present(await getSchedule(actor, savedReportId, tx));
    });
  }
}

export type ReportSchedulesService = ReturnType<typeof createReportSchedulesService>;
