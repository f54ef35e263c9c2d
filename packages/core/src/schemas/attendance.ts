import { z } from 'zod';
import { WORKING_TIME_PRESETS } from '../attendance/working-time.js';
import { daySchema } from './rates.js';

/**
 * Attendance as the app sets and reads it (issue 37): the workspace's place for public holidays
 * and its working-time rules, people's contracts, and a person's expected time and overtime.
 */
export const attendanceMessages = {
  country: 'Choose a country by its two-letter code, or none.',
  region: 'Choose a region of the country, or none.',
  minutes: 'Each weekday expects 0 to 1,440 minutes.',
  week: 'Give the minutes of seven weekdays, Monday first.',
} as const;

const PRESETS = Object.keys(WORKING_TIME_PRESETS) as [keyof typeof WORKING_TIME_PRESETS];

export const attendanceSettingsBody = z.object({
  /** Where public holidays come from (ISO 3166-1 alpha-2); null: none. */
  country: z
    .string({ error: attendanceMessages.country })
    .regex(/^[A-Z]{2}$/, attendanceMessages.country)
    .nullable(),
  /** The country's region (its own holidays), e.g. "BY"; null: the whole country's only. */
  region: z
    .string({ error: attendanceMessages.region })
    .regex(/^[A-Z0-9-]{1,10}$/, attendanceMessages.region)
    .nullable(),
  /** The working-time rules checked (a preset, such as "de"); null: none. */
  rules: z.enum(PRESETS, { error: 'Choose working-time rules the workspace knows, or none.' }).nullable(),
  /** Whether a day short of the legal breaks gets the least break that keeps them (recorded as such). */
  addLegalBreaks: z.boolean({ error: 'addLegalBreaks is true or false.' }),
});
export type AttendanceSettingsBody = z.infer<typeof attendanceSettingsBody>;
export const attendanceSettingsView = attendanceSettingsBody;
export type AttendanceSettingsView = z.infer<typeof attendanceSettingsView>;
export const DEFAULT_ATTENDANCE_SETTINGS: AttendanceSettingsView = {
  country: null,
  region: null,
  rules: null,
  addLegalBreaks: false,
};

const minutes = z
  .number({ error: attendanceMessages.minutes })
  .int(attendanceMessages.minutes)
  .min(0, attendanceMessages.minutes)
  .max(1440, attendanceMessages.minutes);

export const workContractBody = z.object({
  userId: z.uuid({ error: 'Choose a member of the workspace.' }),
  /** The first day it holds; it holds until the person's next contract. */
  startsOn: daySchema,
  /** Minutes expected on Monday, Tuesday, ..., Sunday. */
  weekdayMinutes: z.tuple([minutes, minutes, minutes, minutes, minutes, minutes, minutes], {
    error: attendanceMessages.week,
  }),
});
export type WorkContractBody = z.infer<typeof workContractBody>;

export const workContractView = workContractBody.extend({ id: z.string() });
export type WorkContractView = z.infer<typeof workContractView>;
export const workContractListView = z.object({ items: z.array(workContractView) });

export const overtimeQuery = z.object({
  /** Whose: the reader's own unless given. */
  userId: z.uuid({ error: 'userId must be an id.' }).optional(),
  from: daySchema,
  to: daySchema,
});

export const overtimeDayView = z.object({
  day: z.string(),
  /** The public holiday's name, when the day is one. */
  holiday: z.string().nullable(),
  contractMinutes: z.number().int(),
  expectedMinutes: z.number().int(),
  workedMinutes: z.number().int(),
  deltaMinutes: z.number().int(),
  balanceMinutes: z.number().int(),
});
export const overtimeView = z.object({
  userId: z.string(),
  days: z.array(overtimeDayView),
  expectedMinutes: z.number().int(),
  workedMinutes: z.number().int(),
  /** Worked minus expected over the range. */
  balanceMinutes: z.number().int(),
});
export type OvertimeView = z.infer<typeof overtimeView>;
