import type { UserView } from '@sundial/core';
import type { User } from '../../db/tables.js';

export { userView } from '@sundial/core';

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
    emailVerified: user.email_verified_at !== null,
  };
}
