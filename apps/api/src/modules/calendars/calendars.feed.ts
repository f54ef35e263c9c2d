import {
  CALENDAR_FEED_FUTURE_DAYS,
  CALENDAR_FEED_PAST_DAYS,
  type CalendarFeedBody,
  type CalendarFeedView,
  type CreatedCalendarFeedView,
  calendarFeedBody,
  type TimeEntryView,
} from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { allows } from '../../platform/access.js';
import type { Actor, MembershipWithWorkspace } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import { AppError, notFound } from '../../platform/errors.js';
import { hashSecret, newId, newSecret } from '../../platform/ids.js';
import { rateLimiter } from '../../platform/rate-limits.js';
import type { TimeEntriesService } from '../time-entries/time-entries.service.js';
import { usersService } from '../users/users.service.js';
import { type FeedEvent, writeFeed } from './calendars.ics.js';
import { FEED_LAST_USE_EVERY_MS, type FeedRow, calendarsRepository as repo } from './calendars.repository.js';

/** Feed addresses start with this, so a leaked one is recognisable. */
export const FEED_TOKEN_PREFIX = 'sdc_';
const DAY_MS = 86_400_000;
/** Entries read per page, and the most a feed holds (the newest first). */
const PAGE = 500;
const MAX_ENTRIES = 5000;

export interface FeedDeps {
  db: Db;
  timeEntries: Pick<TimeEntriesService, 'list'>;
  workspaces: { getMembership(workspaceId: string, userId: string): Promise<MembershipWithWorkspace> };
  publicUrl: string;
  /** Reads a minute from one address. */
  readsPerMinute: number;
  now: () => Date;
}

const feedGone = () =>
  new AppError('not_found', 'This calendar address is not valid: it was reset or removed.', { status: 404 });

const canIncludeTeam = (membership: Pick<MembershipWithWorkspace, 'permissions'>) =>
  allows(membership, 'time:view_others');

/**
 * A person's private iCalendar feed of their time in a workspace (and, when they may see others'
 * time and ask for it, their people's): one secret address, kept as its sha-256 and shown once,
 * read without a session by calendar apps; reset gives a new address and the old one stops.
 */
export function createCalendarFeed(deps: FeedDeps) {
  const { db, timeEntries, workspaces, publicUrl, now: clock } = deps;

  const view = (row: FeedRow | undefined, actor: Actor): CalendarFeedView => ({
    exists: row !== undefined,
    includeTeam: row?.include_team ?? false,
    canIncludeTeam: canIncludeTeam(actor.membership),
    createdAt: row?.created_at.toISOString() ?? null,
    lastUsedAt: row?.last_used_at?.toISOString() ?? null,
  });

  const includeTeamOf = (actor: Actor, input: CalendarFeedBody) => {
    const includeTeam = calendarFeedBody.parse(input).includeTeam;
    if (includeTeam && !canIncludeTeam(actor.membership)) {
      throw new AppError('forbidden', 'Only those who see others’ time can add their people’s time to the feed.', {
        status: 403,
      });
    }
    return includeTeam;
  };

  /** The entries of the window as the timesheet lists them (the owner's access of now), newest first. */
  async function entriesOf(actor: Actor, includeTeam: boolean, at: Date): Promise<TimeEntryView[]> {
    const from = new Date(at.getTime() - CALENDAR_FEED_PAST_DAYS * DAY_MS).toISOString();
    const to = new Date(at.getTime() + CALENDAR_FEED_FUTURE_DAYS * DAY_MS).toISOString();
    const userId = includeTeam && canIncludeTeam(actor.membership) ? 'all' : undefined;
    const entries: TimeEntryView[] = [];
    let cursor: string | undefined;
    do {
      const page = await timeEntries.list(actor, { from, to, userId, limit: PAGE, ...(cursor ? { cursor } : {}) });
      entries.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor && entries.length < MAX_ENTRIES);
    return entries.slice(0, MAX_ENTRIES);
  }

  /** Each entry as an event: "Project · Task" (the note when neither), the person's name first in a team feed. */
  async function eventsOf(actor: Actor, entries: TimeEntryView[], team: boolean, at: Date): Promise<FeedEvent[]> {
    const workspaceId = actor.membership.workspace.id;
    const unique = (ids: (string | null)[]) => [...new Set(ids.filter((id): id is string => id !== null))];
    const [names, people] = await Promise.all([
      repo.projectNames(db, workspaceId, {
        projects: unique(entries.map((e) => e.projectId)),
        tasks: unique(entries.map((e) => e.taskId)),
      }),
      team ? repo.peopleNames(db, unique(entries.map((e) => e.userId))) : new Map<string, string>(),
    ]);
    return entries.map((entry) => {
      const project = entry.projectId ? names.projects.get(entry.projectId) : undefined;
      const task = entry.taskId ? names.tasks.get(entry.taskId) : undefined;
      const what = [project, task].filter(Boolean).join(' · ') || entry.note.split('\n')[0] || 'No project';
      const who = team && entry.userId !== actor.userId ? `${people.get(entry.userId) ?? 'Someone'}: ` : '';
      const description = [
        project && `Project: ${project}`,
        task && `Task: ${task}`,
        entry.note && `Note: ${entry.note}`,
        entry.isRunning && 'The timer is running: shown up to the moment the calendar was read.',
      ]
        .filter(Boolean)
        .join('\n');
      return {
        uid: `${entry.id}@sundial`,
        start: new Date(entry.start),
        end: entry.end ? new Date(entry.end) : at,
        summary: `${who}${what}${entry.isRunning ? ' (running)' : ''}`,
        description,
        updatedAt: new Date(entry.updatedAt),
      };
    });
  }

  async function issue(actor: Actor, includeTeam: boolean) {
    const workspaceId = actor.membership.workspace.id;
    const token = `${FEED_TOKEN_PREFIX}${newSecret()}`;
    const row = await db.transaction().execute(async (tx) => {
      const old = await repo.revokeFeed(tx, workspaceId, actor.userId, clock());
      const created = await repo.insertFeed(tx, {
        id: newId(),
        workspaceId,
        userId: actor.userId,
        tokenHash: hashSecret(token),
        includeTeam,
      });
      await audit(tx, {
        action: old ? 'calendar_feed.reset' : 'calendar_feed.created',
        actorUserId: actor.userId,
        workspaceId,
        subjectId: created.id,
        detail: { includeTeam, ...(old ? { revokedFeedId: old } : {}) },
      });
      return created;
    });
    const url = `${publicUrl}/api/v1/calendar-feeds/${token}.ics`;
    return { ...view(row, actor), url, webcalUrl: url.replace(/^https?:\/\//, 'webcal://') };
  }

  return {
    async feed(actor: Actor): Promise<CalendarFeedView> {
      return view(await repo.findFeed(db, actor.membership.workspace.id, actor.userId), actor);
    },

    /**
     * Makes the person's feed, or resets it: a new secret address (in this answer only) and the old
     * one stops at once. 403 when asking for the team's time without seeing others' time.
     */
    async issueFeed(actor: Actor, input: CalendarFeedBody): Promise<CreatedCalendarFeedView> {
      const includeTeam = includeTeamOf(actor, input);
      return issue(actor, includeTeam);
    },

    /** Changes what the feed holds, keeping its address. 404 without a feed. */
    async updateFeed(actor: Actor, input: CalendarFeedBody): Promise<CalendarFeedView> {
      const includeTeam = includeTeamOf(actor, input);
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) => {
        const existing = await repo.findFeed(tx, workspaceId, actor.userId);
        if (!existing) throw notFound('You have no calendar feed here: make one first.');
        const row = await repo.setFeedIncludeTeam(tx, workspaceId, existing.id, includeTeam);
        await audit(tx, {
          action: 'calendar_feed.updated',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: row.id,
          detail: { includeTeam },
        });
        return view(row, actor);
      });
    },

    /** Stops the feed's address. 404 without a feed. */
    async revokeFeed(actor: Actor): Promise<void> {
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        const id = await repo.revokeFeed(tx, workspaceId, actor.userId, clock());
        if (!id) throw notFound('You have no calendar feed here.');
        await audit(tx, { action: 'calendar_feed.revoked', actorUserId: actor.userId, workspaceId, subjectId: id });
      });
    },

    /**
     * The feed of a secret address as iCalendar text, read as its owner with their access of now.
     * Unknown, reset and revoked addresses, and those whose owner left the workspace, are one 404;
     * each address has `readsPerMinute` reads a minute (429 past it).
     */
    async readFeed(file: string, client: { ip: string }): Promise<string> {
      await rateLimiter.hit(db, {
        bucket: `calendar-feed:ip:${client.ip}`,
        limit: deps.readsPerMinute,
        windowMs: 60_000,
        message: (wait) => `Too many calendar reads from your network: try again in ${wait}.`,
      });
      const token = file.replace(/\.ics$/i, '');
      if (!token.startsWith(FEED_TOKEN_PREFIX)) throw feedGone();
      const feed = await repo.findFeedByHash(db, hashSecret(token));
      if (!feed) throw feedGone();
      const user = await usersService.findById(db, feed.user_id);
      const membership = await workspaces.getMembership(feed.workspace_id, feed.user_id).catch(() => undefined);
      if (!user || membership?.status !== 'active') throw feedGone();
      const actor: Actor = { user, userId: user.id, membership, via: 'token' };
      const at = clock();
      const team = feed.include_team && canIncludeTeam(membership);
      const entries = await entriesOf(actor, team, at);
      const events = await eventsOf(actor, entries, team, at);
      if (!feed.last_used_at || at.getTime() - feed.last_used_at.getTime() >= FEED_LAST_USE_EVERY_MS) {
        await repo.touchFeed(db, feed.id, at);
      }
      return writeFeed(`Sundial: ${membership.workspace.name}`, events, at);
    },
  };
}
