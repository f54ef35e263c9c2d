import {
  type AttendanceSettingsBody,
  type AttendanceSettingsView,
  attendanceSettingsBody,
  DEFAULT_ATTENDANCE_SETTINGS,
  dayBounds,
  dayPieces,
  type OvertimeView,
  overtimeBalance,
  type WorkContractBody,
  type WorkContractView,
  workContractBody,
} from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { assertCan, reachesTimeOf } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit, changesOf } from '../../platform/audit.js';
import { forbidden, mapConstraints, notFound, validationError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { TimeEntriesService } from '../time-entries/time-entries.service.js';
import { holidayRegions, publicHolidays } from './attendance.holidays.js';
import { attendanceRepository as repo } from './attendance.repository.js';

const DAY_MS = 86_400_000;
/** The longest range one overtime read covers. */
const MAX_DAYS = 366;
const PAGE = 1000;

/**
 * Attendance (issue 37), its first part: the workspace's place for public holidays and its
 * working-time rules, people's contracts, and a person's expected time, worked time and overtime
 * over a range (core's `overtimeBalance`, the entries read through the time-entries service).
 * Owners and admins (`attendance:settings`) change the settings and contracts; everyone reads the
 * settings, their own contracts and overtime, and those of whose time they see.
 */
export function createAttendanceService(deps: { db: Db; timeEntries: TimeEntriesService }) {
  const { db, timeEntries } = deps;

  const settingsOf = async (workspaceId: string) =>
    (await repo.settings(db, workspaceId)) ?? DEFAULT_ATTENDANCE_SETTINGS;

  /** The person whose attendance the actor reads: their own, or one whose time they see (404 outside the workspace). */
  async function personOf(actor: Actor, userId: string | undefined) {
    const target = userId ?? actor.userId;
    const member = await repo.member(db, actor.membership.workspace.id, target);
    if (!member) throw notFound('Member not found.');
    if (target !== actor.userId && !(await reachesTimeOf(db, actor, target, 'view'))) throw forbidden();
    return member;
  }

  /** Work seconds per local day of the person's entries over [from, to] (days in their time zone). */
  async function workedMinutes(actor: Actor, userId: string, timeZone: string, from: string, to: string) {
    const range = { from: new Date(dayBounds(from, timeZone).startMs), to: new Date(dayBounds(to, timeZone).endMs) };
    const seconds = new Map<string, number>();
    const now = new Date();
    let cursor: string | undefined;
    do {
      const page = await timeEntries.list(actor, {
        userId,
        from: range.from.toISOString(),
        to: range.to.toISOString(),
        limit: PAGE,
        ...(cursor ? { cursor } : {}),
      });
      for (const entry of page.items) {
        for (const piece of dayPieces(entry, { timeZone, now })) {
          if (piece.day >= from && piece.day <= to)
            seconds.set(piece.day, (seconds.get(piece.day) ?? 0) + piece.seconds);
        }
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return new Map([...seconds].map(([day, s]) => [day, Math.round(s / 60)]));
  }

  return {
    async settings(actor: Actor): Promise<AttendanceSettingsView> {
      return settingsOf(actor.membership.workspace.id);
    },

    /** Replaces the workspace's attendance settings (`attendance:settings`), audited with what changed. */
    async saveSettings(actor: Actor, input: AttendanceSettingsBody): Promise<AttendanceSettingsView> {
      assertCan(actor, 'attendance:settings');
      const settings = attendanceSettingsBody.parse(input);
      if (settings.region !== null && settings.country === null) {
        throw validationError({ region: 'Choose the country of the region first.' });
      }
      const regions = settings.country === null ? [] : holidayRegions(settings.country);
      if (regions === null) throw validationError({ country: 'Sundial knows no public holidays of that country.' });
      if (settings.region !== null && !regions.some((r) => r.code === settings.region)) {
        throw validationError({ region: 'That is not a region of the country with holidays of its own.' });
      }
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        const before = (await repo.settings(tx, workspaceId)) ?? DEFAULT_ATTENDANCE_SETTINGS;
        await repo.saveSettings(tx, workspaceId, settings);
        const changes = changesOf(before, settings);
        if (Object.keys(changes).length === 0) return;
        await audit(tx, {
          action: 'attendance_settings.updated',
          actorUserId: actor.userId,
          workspaceId,
          detail: { changes },
        });
      });
      return settings;
    },

    /** A person's contracts, earliest first: the actor's own unless given. */
    async contracts(actor: Actor, userId: string | undefined): Promise<{ items: WorkContractView[] }> {
      const person = await personOf(actor, userId);
      return { items: await repo.contracts(db, actor.membership.workspace.id, person.user_id) };
    },

    /** Adds a contract (`attendance:settings`): one a person and day; it holds until their next. */
    async addContract(actor: Actor, input: WorkContractBody): Promise<WorkContractView> {
      assertCan(actor, 'attendance:settings');
      const body = workContractBody.parse(input);
      const workspaceId = actor.membership.workspace.id;
      if (!(await repo.member(db, workspaceId, body.userId))) {
        throw validationError({ userId: 'That person is not a member of this workspace.' });
      }
      const contract: WorkContractView = { id: newId(), ...body };
      await db.transaction().execute(async (tx) => {
        await mapConstraints(
          {
            work_contracts_workspace_id_user_id_starts_on_key: {
              message: 'This person already has a contract from that day: delete it first.',
              field: 'startsOn',
            },
          },
          () => repo.insertContract(tx, workspaceId, contract),
        );
        await audit(tx, {
          action: 'work_contract.created',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: body.userId,
          detail: { startsOn: body.startsOn, weekdayMinutes: body.weekdayMinutes },
        });
      });
      return contract;
    },

    async deleteContract(actor: Actor, id: string): Promise<void> {
      assertCan(actor, 'attendance:settings');
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        const gone = await repo.deleteContract(tx, workspaceId, id);
        if (!gone) throw notFound('Contract not found.');
        await audit(tx, {
          action: 'work_contract.deleted',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: gone.user_id,
          detail: { startsOn: gone.starts_on },
        });
      });
    },

    /**
     * A person's expected and worked minutes per day over from..to (at most a year), with the
     * running balance from the range's start: contracts, the workspace's public holidays, and the
     * work of their entries (the parts falling on each day of their time zone).
     */
    async overtime(
      actor: Actor,
      query: { userId?: string | undefined; from: string; to: string },
    ): Promise<OvertimeView> {
      if (query.to < query.from) throw validationError({ to: 'The range ends before it starts.' });
      if ((Date.parse(query.to) - Date.parse(query.from)) / DAY_MS >= MAX_DAYS) {
        throw validationError({ to: 'Read at most a year at once.' });
      }
      const workspaceId = actor.membership.workspace.id;
      const person = await personOf(actor, query.userId);
      const [settings, contracts, worked] = await Promise.all([
        settingsOf(workspaceId),
        repo.contracts(db, workspaceId, person.user_id),
        workedMinutes(actor, person.user_id, person.time_zone, query.from, query.to),
      ]);
      const holidays = new Map(
        settings.country === null
          ? []
          : publicHolidays({ country: settings.country, region: settings.region }, query.from, query.to).map((h) => [
              h.day,
              h.name,
            ]),
      );
      const days = overtimeBalance({
        from: query.from,
        to: query.to,
        contracts: contracts.map((c) => ({ from: c.startsOn, weekdayMinutes: c.weekdayMinutes })),
        worked,
        daysOff: new Map([...holidays.keys()].map((day) => [day, { holiday: true }])),
      });
      const sum = (pick: (d: (typeof days)[number]) => number) => days.reduce((total, d) => total + pick(d), 0);
      return {
        userId: person.user_id,
        days: days.map((d) => ({ ...d, holiday: holidays.get(d.day) ?? null })),
        expectedMinutes: sum((d) => d.expectedMinutes),
        workedMinutes: sum((d) => d.workedMinutes),
        balanceMinutes: days.at(-1)?.balanceMinutes ?? 0,
      };
    },
  };
}

export type AttendanceService = ReturnType<typeof createAttendanceService>;
