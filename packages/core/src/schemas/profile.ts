import { z } from 'zod';
import { DURATION_FORMATS } from '../time/duration.js';
import { timeZoneSchema } from './auth.js';
import { allowedEmailDomainsSchema } from './email-domains.js';
import { text } from './text.js';

export const WEEK_STARTS = ['monday', 'sunday', 'saturday'] as const;
export const DATE_FORMATS = ['YYYY-MM-DD', 'DD/MM/YYYY', 'MM/DD/YYYY', 'DD.MM.YYYY'] as const;
export const TIME_FORMATS = ['24h', '12h'] as const;

export const profileUpdateBody = z
  .object({
    name: text({ max: 100, tooLong: 'Name must be at most 100 characters.' }),
    timeZone: timeZoneSchema,
    weekStart: z.enum(WEEK_STARTS),
    dateFormat: z.enum(DATE_FORMATS),
    timeFormat: z.enum(TIME_FORMATS),
    durationFormat: z.enum(DURATION_FORMATS, { error: 'Choose h:mm:ss, h:mm or decimal hours.' }),
    currentWorkspaceId: z.uuid(),
  })
  .partial();
export type ProfileUpdateBody = z.input<typeof profileUpdateBody>;

export const workspaceNameSchema = text({
  min: 1,
  max: 100,
  required: 'Workspace name is required.',
  tooLong: 'Workspace name must be at most 100 characters.',
});

export const createWorkspaceBody = z.object({ name: workspaceNameSchema });
/** A workspace's settings an owner or admin changes: its name, its allowed e-mail domains, or both. */
export const updateWorkspaceBody = z
  .object({ name: workspaceNameSchema, allowedEmailDomains: allowedEmailDomainsSchema })
  .partial()
  .refine((body) => body.name !== undefined || body.allowedEmailDomains !== undefined, {
    message: 'Send a name or the allowed e-mail domains.',
  });
export type UpdateWorkspaceBody = z.input<typeof updateWorkspaceBody>;
