import {
  type ActivityDayView,
  type ActivitySpanView,
  type AgentConfigView,
  type AgentSpan,
  type ComputerTimeSettingsView,
  compilePattern,
  computerTimeSettingsBody,
  DEFAULT_COMPUTER_TIME_SETTINGS,
  dayKey,
  personalPrivacy,
  SPANS_MAX_DAYS,
  stripUrl,
} from '@sundial/core';
import { z } from 'zod';
import type { Db } from '../../db/connection.js';
import { allows, assertCan, othersTimeScope } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit, changesOf } from '../../platform/audit.js';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { defineJob, type JobRunner } from '../../platform/jobs.js';
import { privacyOf } from './computer-time.privacy.js';
import { privacyRepository } from './computer-time.privacy.repository.js';
import {
  type DeviceRow,
  type NewSpan,
  computerTimeRepository as repo,
  type SpanRow,
} from './computer-time.repository.js';
import { addDeltas, dailyDeltas } from './computer-time.rollups.js';

/** Deletes activity older than each workspace's retention, and pairing codes long expired. */
export const pruneActivityJob = defineJob('computer-time.prune', z.object({}));

/** How far ahead of the server's clock a span may end (clocks differ a little). */
export const FUTURE_SLACK_MS = 2 * 60_000;
const DAY_MS = 86_400_000;
/** The longest span, and the longest range one read of activities covers. */
const MAX_SPAN_MS = DAY_MS;
const MAX_ACTIVITY_DAYS = 366;

const refused = (code: string, message: string) => new AppError(code, message, { status: 422 });

/**
 * What the workspace keeps of a span: titles and sites as its settings say, sites without query or
 * fragment, a span matching an exclusion as `excluded`. The exclusions are compiled once, for a whole upload.
 */
export function spanKeeper(settings: ComputerTimeSettingsView): (span: AgentSpan) => NewSpan {
  // The agent's own language (core's compilePattern): contains, ignoring case, * for any run.
  const rules = settings.exclusions.map((rule) => ({ field: rule.field, test: compilePattern(rule.pattern) }));
  const matches = (value: string | null, field: 'app' | 'title') =>
    value !== null && rules.some((rule) => rule.field === field && rule.test(value));
  return (span) => {
    const started_at = new Date(span.startedAt);
    const ended_at = new Date(span.endedAt);
    if (span.kind === 'away') {
      const away_reason = span.awayReason ?? 'idle';
      return { id: span.id, kind: span.kind, started_at, ended_at, app: null, title: null, url: null, away_reason };
    }
    const app = span.app ?? '';
    if (rules.length > 0 && (matches(app, 'app') || matches(span.title, 'title'))) {
      return {
        id: span.id,
        kind: span.kind,
        started_at,
        ended_at,
        app: 'excluded',
        title: null,
        url: null,
        away_reason: null,
      };
    }
    const title = settings.keep === 'apps' ? null : span.title;
    const url = settings.keep === 'sites' && span.url !== null ? stripUrl(span.url) : null;
    return { id: span.id, kind: span.kind, started_at, ended_at, app, title, url, away_reason: null };
  };
}

const spanView = (row: SpanRow): ActivitySpanView => ({
  id: row.id,
  deviceId: row.device_id,
  kind: row.kind,
  startedAt: row.started_at.toISOString(),
  endedAt: row.ended_at.toISOString(),
  app: row.app,
  title: row.title,
  url: row.url,
  awayReason: row.away_reason,
});

const at = (ms: number) => new Date(ms).toISOString();

/** Refuses a batch the agent could not have made: in the future, longer than a day, overlapping itself. */
function checkBatch(spans: readonly AgentSpan[], now: Date): void {
  const ids = new Set<string>();
  const bounds: { span: AgentSpan; start: number; end: number }[] = [];
  for (const span of spans) {
    if (ids.has(span.id)) throw refused('span_repeated', `Span ${span.id} appears twice in the upload.`);
    ids.add(span.id);
    const start = Date.parse(span.startedAt);
    const end = Date.parse(span.endedAt);
    if (end > now.getTime() + FUTURE_SLACK_MS) {
      throw refused(
        'span_in_future',
        `Span ${span.id} ends at ${at(end)}, after the server’s time ${now.toISOString()}: check the computer’s clock.`,
      );
    }
    if (end - start > MAX_SPAN_MS) throw refused('span_too_long', `Span ${span.id} lasts more than 24 hours.`);
    if (span.kind === 'active' && !span.app) {
      throw refused('span_without_app', `Active span ${span.id} names no application (send "excluded" to hide it).`);
    }
    bounds.push({ span, start, end });
  }
  bounds.sort((a, b) => a.start - b.start);
  for (let i = 1; i < bounds.length; i += 1) {
    const [previous, next] = [bounds[i - 1], bounds[i]];
    if (previous && next && next.start < previous.end) {
      throw refused(
        'span_overlap',
        `Spans ${previous.span.id} and ${next.span.id} overlap: a computer does one thing at a time.`,
      );
    }
  }
}

const hidden = () =>
  new AppError(
    'forbidden',
    'You see your own activity only: managers see their people’s activity only when the computer time settings (the workspace’s, or the person’s groups’) say so.',
    { status: 403 },
  );

/**
 * Whose activity the actor reads: always their own; another person's only when the actor may see
 * that person's time and that person's privacy (the workspace's settings as their groups change
 * them) lets managers see it. `userIds` is whom a read covers: null is the whole workspace (an
 * owner or admin when everyone's privacy allows it), else exactly these people.
 */
export async function readersOf(db: Db, actor: Actor, only: readonly string[] | null) {
  const workspaceId = actor.membership.workspace.id;
  const self = { sees: (userId: string) => userId === actor.userId, userIds: [actor.userId] as string[] | null };
  if (!allows(actor.membership, 'time:view_others')) return self;
  const scope = await othersTimeScope(db, actor);
  const settings = (await repo.settings(db, workspaceId)) ?? DEFAULT_COMPUTER_TIME_SETTINGS;
  const privacy = await privacyOf(db, workspaceId, settings, only ?? (scope && [...scope]));
  if (privacy.uniform && !settings.managersSeeActivity) return self;
  const sees = (userId: string) =>
    userId === actor.userId || ((scope === null || scope.has(userId)) && privacy.of(userId).managersSeeActivity);
  if (scope === null && privacy.uniform) return { sees, userIds: null };
  const candidates = scope ?? (await privacyRepository.memberIds(db, workspaceId));
  return { sees, userIds: [actor.userId, ...[...candidates].filter((id) => id !== actor.userId && sees(id))] };
}

/**
 * The instants [from, to) of a read of at most `maxDays` days, and whose activity it reads: the
 * actor's own, or (403) someone else's when `readersOf` lets them.
 */
export async function readableRange(
  db: Db,
  actor: Actor,
  query: { userId?: string | undefined; from: string; to: string },
  maxDays: number,
): Promise<{ from: Date; to: Date; userId: string }> {
  const from = new Date(query.from);
  const to = new Date(query.to);
  if (to <= from) throw refused('validation_failed', 'The range ends before it starts.');
  if (to.getTime() - from.getTime() > maxDays * DAY_MS) {
    throw refused('validation_failed', `Read at most ${maxDays} days of activity at once.`);
  }
  const userId = query.userId ?? actor.userId;
  if (userId !== actor.userId && !(await readersOf(db, actor, [userId])).sees(userId)) throw hidden();
  return { from, to, userId };
}

/**
 * Computer time's activity: the workspace's settings, the agent's uploads (idempotent per span,
 * the settings applied, daily rollups kept in the same transaction), and what people read and delete.
 */
export function createActivity(deps: { db: Db; jobs: JobRunner; now: () => Date }) {
  const { db, jobs, now: clock } = deps;

  const settingsOf = async (tx: Db, workspaceId: string) =>
    (await repo.settings(tx, workspaceId)) ?? DEFAULT_COMPUTER_TIME_SETTINGS;

  /** The person's privacy alone (what the agent keeps of them). */
  async function personal(tx: Db, workspaceId: string, userId: string) {
    const [settings, choices] = await Promise.all([
      settingsOf(tx, workspaceId),
      privacyRepository.choicesOf(tx, workspaceId, userId),
    ]);
    return { ...settings, ...personalPrivacy(settings, choices) };
  }

  return {
    async settings(actor: Actor): Promise<ComputerTimeSettingsView> {
      return settingsOf(db, actor.membership.workspace.id);
    },

    /** Replaces the workspace's settings (`computer_time:settings`), audited with what changed. */
    async saveSettings(actor: Actor, input: ComputerTimeSettingsView): Promise<ComputerTimeSettingsView> {
      assertCan(actor, 'computer_time:settings');
      const settings = computerTimeSettingsBody.parse(input);
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        const before = await settingsOf(tx, workspaceId);
        await repo.saveSettings(tx, workspaceId, settings);
        const changes = changesOf(before, settings);
        if (Object.keys(changes).length === 0) return;
        await audit(tx, {
          action: 'computer_time_settings.updated',
          actorUserId: actor.userId,
          workspaceId,
          detail: { changes },
        });
      });
      return settings;
    },

    /** What the agent of `device` needs of its workspace's settings. */
    async agentConfig(device: DeviceRow): Promise<AgentConfigView> {
      const settings = await personal(db, device.workspace_id, device.user_id);
      return {
        workspaceId: device.workspace_id,
        userId: device.user_id,
        deviceId: device.id,
        keep: settings.keep,
        idleSeconds: settings.idleSeconds,
        exclusions: settings.exclusions,
        serverTime: clock().toISOString(),
      };
    },

    /**
     * Stores an upload in one transaction: spans already stored (same id) count as duplicates; a
     * span in the future, longer than a day, or overlapping another of the device's refuses the
     * whole upload (422). The workspace's settings are applied before anything is stored.
     */
    async ingest(device: DeviceRow, spans: readonly AgentSpan[]): Promise<{ accepted: number; duplicates: number }> {
      checkBatch(spans, clock());
      const owner = { workspaceId: device.workspace_id, userId: device.user_id, deviceId: device.id };
      // Five round trips: begin, the device locked with the settings and time zone, the spans
      // checked against the stored ones and inserted in one statement, the rollups, commit.
      return db.transaction().execute(async (tx) => {
        const { settings, groupChoices, timeZone } = await repo.lockForUpload(tx, device.id);
        const workspace = settings ?? DEFAULT_COMPUTER_TIME_SETTINGS;
        const kept = spans.map(spanKeeper({ ...workspace, ...personalPrivacy(workspace, groupChoices) }));
        const { overlap, duplicates } = await repo.insertUpload(tx, owner, kept);
        if (overlap) {
          throw refused(
            'span_overlap',
            `Span ${overlap.id} (from ${overlap.started_at.toISOString()}) overlaps a span this computer uploaded before.`,
          );
        }
        const deltas = dailyDeltas(
          duplicates.size === 0 ? kept : kept.filter((span) => !duplicates.has(span.id)),
          timeZone,
        );
        await repo.addDaily(tx, owner, [...deltas.values()]);
        return { accepted: spans.length - duplicates.size, duplicates: duplicates.size };
      });
    },

    /** A person's spans over [from, to) (at most 7 days): their own, or their people's when the workspace allows. */
    async spans(actor: Actor, query: { userId?: string | undefined; from: string; to: string }) {
      const { from, to, userId } = await readableRange(db, actor, query, SPANS_MAX_DAYS);
      const rows = await repo.spansOf(db, actor.membership.workspace.id, userId, from, to);
      return { items: rows.map(spanView) };
    },

    /**
     * Seconds per person, day and application over [from, to] (days) of the people the actor may
     * see; `together`, their seconds added up per day and application.
     */
    async activities(
      actor: Actor,
      query: { from: string; to: string; userIds?: string[] | undefined; together?: boolean | undefined },
    ) {
      if (query.to < query.from) throw refused('validation_failed', 'The range ends before it starts.');
      if ((Date.parse(query.to) - Date.parse(query.from)) / DAY_MS >= MAX_ACTIVITY_DAYS) {
        throw refused('validation_failed', 'Read at most a year of activities at once.');
      }
      const only = query.userIds && query.userIds.length > 0 ? query.userIds : null;
      const { sees, userIds } = await readersOf(db, actor, only);
      if (only && !only.every(sees)) throw hidden();
      const rows = await repo.daily(db, actor.membership.workspace.id, {
        from: query.from,
        to: query.to,
        userIds: only ?? userIds,
        together: query.together ?? false,
      });
      const items: ActivityDayView[] = rows.map((r) => ({
        userId: r.user_id,
        day: r.day,
        app: r.app,
        site: r.site === '' ? null : r.site,
        seconds: r.seconds,
      }));
      return { items };
    },

    /**
     * Deletes the actor's own activity over [from, to): spans inside go, spans across an end are
     * cut at it (one across the whole range becomes two), and the daily rollups follow.
     */
    async deleteOwn(actor: Actor, query: { from: string; to: string }) {
      const from = new Date(query.from);
      const to = new Date(query.to);
      if (to <= from) throw refused('validation_failed', 'The range ends before it starts.');
      const workspaceId = actor.membership.workspace.id;
      const owner = { workspaceId, userId: actor.userId };
      return db.transaction().execute(async (tx) => {
        const rows = await repo.spansOf(tx, workspaceId, actor.userId, from, to);
        const timeZone = await repo.timeZoneOf(tx, actor.userId);
        const deltas = dailyDeltas(rows, timeZone, -1);
        const gone: string[] = [];
        const kept: SpanRow[] = [];
        for (const row of rows) {
          const head = row.started_at < from ? { ...row, ended_at: from } : undefined;
          const tail = row.ended_at > to ? { ...row, started_at: to } : undefined;
          if (!head && !tail) {
            gone.push(row.id);
            continue;
          }
          const first = head ?? tail;
          if (first) {
            await repo.moveSpan(tx, row.id, { started_at: first.started_at, ended_at: first.ended_at });
            kept.push(first);
          }
          if (head && tail) {
            const piece = { ...tail, id: newId() };
            await repo.insertSpans(tx, { ...owner, deviceId: row.device_id }, [piece]);
            kept.push(piece);
          }
        }
        await repo.deleteSpans(tx, gone);
        addDeltas(deltas, kept, timeZone, 1);
        await repo.addDaily(
          tx,
          owner,
          [...deltas.values()].filter((d) => d.seconds !== 0),
        );
        if (rows.length > 0) {
          await audit(tx, {
            action: 'activity.deleted',
            actorUserId: actor.userId,
            workspaceId,
            subjectId: actor.userId,
            detail: { from: query.from, to: query.to, deleted: gone.length, trimmed: rows.length - gone.length },
          });
        }
        return { deleted: gone.length, trimmed: rows.length - gone.length };
      });
    },

    /** Deletes spans and rollup days past each workspace's retention; forgets codes expired a day ago. */
    async prune(now: Date): Promise<void> {
      for (const { workspace_id, retention_days } of await repo.retentions(db)) {
        const before = new Date(now.getTime() - retention_days * DAY_MS);
        await db.transaction().execute((tx) => repo.prune(tx, workspace_id, before, dayKey(before, 'UTC')));
      }
      await repo.purgeCodes(db, new Date(now.getTime() - DAY_MS));
    },

    registerJobs(): void {
      jobs.register(pruneActivityJob, async (_payload, { now }) => this.prune(now));
      jobs.schedule(pruneActivityJob, '29 4 * * *', {});
    },
  };
}
