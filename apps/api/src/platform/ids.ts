import { createHash, randomBytes } from 'node:crypto';
import { uuidv7 } from 'uuidv7';

export const newId = (): string => uuidv7();

/** A random 256-bit secret for a cookie or a link, in URL-safe base64. */
export const newSecret = (): string => randomBytes(32).toString('base64url');

/** Secrets are stored hashed, so a leaked table gives no working session or link. */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a string is a UUID, so it can be compared with a uuid column without a database error. */
export const isUuid = (value: string): boolean => UUID.test(value);
