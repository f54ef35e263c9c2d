import { z } from 'zod';
import { currencySchema } from './projects.js';

/**
 * Hourly rates (billable and cost, integer cents) at five levels, most specific first: task,
 * project member, project, member, workspace. Each level keeps a history by effective-from day;
 * an entry copies the rates in force on its start day (in its owner's time zone) when saved.
 */
export const RATE_LEVELS = ['workspace', 'member', 'project', 'project_member', 'task'] as const;
export type RateLevel = (typeof RATE_LEVELS)[number];

/** The largest hourly rate accepted: $1,000,000.00 an hour. */
export const MAX_RATE_CENTS = 100_000_000;

export const rateMessages = {
  dayFormat: 'Enter a day as YYYY-MM-DD.',
  rateRange: 'Enter an hourly rate from 0 to 1,000,000.00 (in cents: a whole number).',
  setSomething: 'Enter a billable rate, a cost rate, or both.',
  targetMissing: (what: string) => `Choose the ${what} of this rate.`,
  sameDay: 'This level already has a rate from that day; delete it first or choose another day.',
  rangeOrder: 'The end of the range must be on or after its start.',
  rangeTooLong: 'Re-apply at most 3 years at once.',
  /** What a re-apply leaves out, or null when nothing. */
  leftOut: (locked: number, invoiced: number): string | null => {
    const n = (k: number) => (k === 1 ? '1 entry' : `${k} entries`);
    const parts = [
      ...(locked > 0
        ? [
            `${n(locked)} in an approved, submitted or lock-dated period (withdraw the approval or move the lock date first)`,
          ]
        : []),
      ...(invoiced > 0 ? [`${n(invoiced)} on a client invoice (void the invoice or delete the draft first)`] : []),
    ];
    return parts.length > 0 ? `Left out, keeping their rates: ${parts.join('; ')}.` : null;
  },
} as const;

/** A calendar day, YYYY-MM-DD, that exists. */
export const daySchema = z
  .string({ error: rateMessages.dayFormat })
  .regex(/^\d{4}-\d{2}-\d{2}$/, rateMessages.dayFormat)
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s && s >= '1970-01-01';
  }, rateMessages.dayFormat);

const cents = z
  .number({ error: rateMessages.rateRange })
  .int(rateMessages.rateRange)
  .min(0, rateMessages.rateRange)
  .max(MAX_RATE_CENTS, rateMessages.rateRange);

/** Which level a rate is on, and what of it: the member, project and/or task its level needs. */
export const rateTarget = z.object({
  level: z.enum(RATE_LEVELS, { error: 'Choose a rate level.' }),
  userId: z.uuid({ error: 'Member not found.' }).optional(),
  projectId: z.uuid({ error: 'Project not found.' }).optional(),
  taskId: z.uuid({ error: 'Task not found.' }).optional(),
});
export type RateTarget = z.infer<typeof rateTarget>;

export const createRateBody = rateTarget
  .extend({
    effectiveFrom: daySchema,
    billableCents: cents.nullable().optional(),
    costCents: cents.nullable().optional(),
  })
  .refine((b) => (b.billableCents ?? null) !== null || (b.costCents ?? null) !== null, {
    message: rateMessages.setSomething,
    path: ['billableCents'],
  });
export type CreateRateBody = z.input<typeof createRateBody>;

export const listRatesQuery = rateTarget;

export const rateView = z.object({
  id: z.uuid(),
  level: z.enum(RATE_LEVELS),
  userId: z.uuid().nullable(),
  projectId: z.uuid().nullable(),
  taskId: z.uuid().nullable(),
  effectiveFrom: z.string(),
  billableCents: z.number().int().nullable(),
  /** Omitted for those who may not see costs. */
  costCents: z.number().int().nullable().optional(),
  createdAt: z.string(),
});
export type RateView = z.infer<typeof rateView>;

/** One level's rate history as the reader may see it (GET /rates). */
export const rateHistoryView = z.object({
  items: z.array(rateView),
  /** Whether the reader sees this level's cost rates (rows then carry costCents). */
  costsShown: z.boolean(),
  /** Whether the reader may add and delete rates here (owners and admins); otherwise the history is read-only. */
  canChange: z.boolean(),
});
export type RateHistoryView = z.infer<typeof rateHistoryView>;

export const rateSettingsView = z.object({
  /** ISO 4217 code of every rate and amount of the workspace. */
  currency: z.string(),
  /** Managers see the cost rates and amounts of their people (otherwise owners and admins only). */
  managersSeeCosts: z.boolean(),
  /** Each member sees the billable rates and amounts of their own time. */
  membersSeeOwnBillable: z.boolean(),
});
export type RateSettings = z.infer<typeof rateSettingsView>;
export const DEFAULT_RATE_SETTINGS: RateSettings = {
  currency: 'USD',
  managersSeeCosts: false,
  membersSeeOwnBillable: false,
};
export const updateRateSettingsBody = z.object({
  currency: currencySchema.optional(),
  managersSeeCosts: z.boolean().optional(),
  membersSeeOwnBillable: z.boolean().optional(),
});
export type UpdateRateSettingsBody = z.input<typeof updateRateSettingsBody>;

/** Re-apply: the rates in force now replace the copied ones on the target's entries of [from, to]. */
export const reapplyRatesBody = rateTarget
  .extend({ from: daySchema, to: daySchema })
  .refine((b) => b.to >= b.from, { message: rateMessages.rangeOrder, path: ['to'] })
  .refine((b) => Date.parse(b.to) - Date.parse(b.from) <= 3 * 366 * 86_400_000, {
    message: rateMessages.rangeTooLong,
    path: ['to'],
  });
export type ReapplyRatesBody = z.input<typeof reapplyRatesBody>;

const rateAndAmount = z.object({
  billableRateCents: z.number().int().nullable(),
  billableAmountCents: z.number().int(),
  costRateCents: z.number().int().nullable(),
  costAmountCents: z.number().int(),
});

export const reapplyPreviewView = z.object({
  /** Entries whose rates would change (at most the first 500 listed; `count` has them all). */
  count: z.number().int(),
  /** Entries whose rates differ but that the re-apply leaves out, by why (not in `count`), and the sentence saying so. */
  leftOut: z.object({ locked: z.number().int(), invoiced: z.number().int(), message: z.string().nullable() }),
  entries: z.array(
    z.object({
      id: z.uuid(),
      userId: z.uuid(),
      start: z.string(),
      durationSeconds: z.number().int(),
      billable: z.boolean(),
      old: rateAndAmount,
      new: rateAndAmount,
    }),
  ),
  totals: z.object({
    old: rateAndAmount.omit({ billableRateCents: true, costRateCents: true }),
    new: rateAndAmount.omit({ billableRateCents: true, costRateCents: true }),
  }),
});
export type ReapplyPreview = z.infer<typeof reapplyPreviewView>;
export const reapplyResultView = z.object({ updated: z.number().int() });
