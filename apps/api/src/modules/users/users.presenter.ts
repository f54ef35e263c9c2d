import { DURATION_FORMATS } from '@sundial/core';
import { z } from 'zod';
import type { User } from '../../db/tables.js';

export const userView = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  timeZone: z.string(),
  weekStart: z.string(),
  dateFormat: z.string(),
  timeFormat: z.string(),
  durationFormat: z.enum(DURATION_FORMATS),
});
export type UserView = z.infer<typeof userView>;

/** Whitelists what a client may see of a user: never the password hash. */
export function presentUser(user: User): UserView {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    phone: user.phone,
    timeZone: user.time_zone,
    weekStart: user.week_start,
    dateFormat: user.date_format,
    timeFormat: user.time_format,
    durationFormat: user.duration_format,
  };
}
