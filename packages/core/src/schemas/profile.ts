import { z } from 'zod';
import { timeZoneSchema } from './auth.js';

export const WEEK_STARTS = ['monday', 'sunday', 'saturday'] as const;
export const DATE_FORMATS = ['YYYY-MM-DD', 'DD/MM/YYYY', 'MM/DD/YYYY', 'DD.MM.YYYY'] as const;
export const TIME_FORMATS = ['24h', '12h'] as const;

export const profileUpdateBody = z
  .object({
    name: z.string().trim().max(100, 'Name must be at most 100 characters.'),
    timeZone: timeZoneSchema,
    weekStart: z.enum(WEEK_STARTS),
    dateFormat: z.enum(DATE_FORMATS),
    timeFormat: z.enum(TIME_FORMATS),
    currentWorkspaceId: z.uuid(),
  })
  .partial();
export type ProfileUpdateBody = z.input<typeof profileUpdateBody>;

export const workspaceNameSchema = z
  .string()
  .trim()
  .min(1, 'Workspace name is required.')
  .max(100, 'Workspace name must be at most 100 characters.');

export const createWorkspaceBody = z.object({ name: workspaceNameSchema });
export const updateWorkspaceBody = z.object({ name: workspaceNameSchema });
