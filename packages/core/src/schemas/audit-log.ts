import { z } from 'zod';
import { instantSchema, text } from './text.js';

/**
 * The audit log a workspace's owners and admins read (issue 34): newest first, filtered by person,
 * action (a whole one, `project.updated`, or a family, `project.`), object and time, a page at a
 * time by cursor.
 */
export const auditLogQuery = z.object({
  actorUserId: z.uuid({ error: 'Choose a person of the workspace.' }).optional(),
  action: text({ max: 80 })
    .pipe(
      z.string().regex(/^[a-z_]+(\.[a-z_]*)?$/, 'An action reads like project.updated, or project. for all of a kind.'),
    )
    .optional(),
  subjectId: z.uuid({ error: 'An object is named by its id.' }).optional(),
  from: instantSchema.optional(),
  to: instantSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  cursor: text({ trim: false, max: 200 }).optional(),
});
export type AuditLogQuery = z.input<typeof auditLogQuery>;

export const auditEntryView = z.object({
  id: z.string(),
  action: z.string(),
  /** Who did it: a person (null for the system, or a person since deleted). */
  actor: z.object({ id: z.string(), name: z.string(), email: z.string() }).nullable(),
  /** The API key the person acted through (its name, or null once gone), when one signed the request. */
  apiKey: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  /** The address the request came from; null for the system's own work. */
  ip: z.string().nullable(),
  subjectId: z.string().nullable(),
  /** What changed, as recorded: names, before and after values, counts. */
  detail: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  /** Its place in the workspace's hash chain; null until sealed (within a minute). */
  seq: z.number().int().nullable(),
});
export type AuditEntryView = z.infer<typeof auditEntryView>;

export const auditLogPage = z.object({ items: z.array(auditEntryView), nextCursor: z.string().nullable() });
export type AuditLogPage = z.infer<typeof auditLogPage>;

/** A walk of the workspace's chain: intact, or the first record found edited, missing or cut off. */
export const auditVerifyView = z.object({
  ok: z.boolean(),
  /** How many sealed records were checked. */
  checked: z.number().int(),
  /** Records up to this place were removed by the retention setting; the walk starts after it. */
  prunedThrough: z.number().int(),
  head: z.object({ seq: z.number().int(), hash: z.string() }).nullable(),
  broken: z
    .object({
      seq: z.number().int(),
      id: z.string().nullable(),
      reason: z.enum(['altered', 'missing', 'truncated']),
      message: z.string(),
    })
    .nullable(),
});
export type AuditVerifyView = z.infer<typeof auditVerifyView>;

/** Retention choices, in days; null keeps records forever. */
export const AUDIT_RETENTION_DAYS = [90, 180, 365, 730, 1095, 2555] as const;

/** How long the workspace keeps its audit records. */
export const auditSettingsView = z.object({ retentionDays: z.number().int().nullable() });
export type AuditSettingsView = z.infer<typeof auditSettingsView>;

const retentionChoice = `Keep records for ${AUDIT_RETENTION_DAYS.join(', ')} days, or forever (null).`;
export const auditSettingsBody = z.object({
  retentionDays: z
    .number({ error: retentionChoice })
    .refine((days) => (AUDIT_RETENTION_DAYS as readonly number[]).includes(days), retentionChoice)
    .nullable(),
});
export type AuditSettingsBody = z.infer<typeof auditSettingsBody>;
