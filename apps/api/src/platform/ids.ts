import { createHash, randomBytes, randomFillSync } from 'node:crypto';
import { V7Generator } from 'uuidv7';

/**
 * Random words for ids, drawn from the system's secure generator a thousand at a time (the
 * library's default draws eight at a time, a costly call for every few ids: one per request).
 */
const words = new Uint32Array(1024);
let cursor = words.length;
const ids = new V7Generator({
  nextUint32: () => {
    if (cursor === words.length) {
      randomFillSync(words);
      cursor = 0;
    }
    return words[cursor++] as number;
  },
});

/** A time-ordered UUID (v7): new rows of a table sit together in its primary key's index. */
export const newId = (): string => ids.generate().toString();

/**
 * The same UUID every time for the same name (a UUID of version 8, RFC 9562's custom layout, from
 * the name's SHA-256): for rows that exist in code until first stored, such as a workspace's
 * starter categories, whose ids must not change between reading them and storing them.
 */
export function nameId(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  const variant = ((Number.parseInt(hex.slice(16, 17), 16) & 3) | 8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A random 256-bit secret for a cookie or a link, in URL-safe base64. */
export const newSecret = (): string => randomBytes(32).toString('base64url');

/** Secrets are stored hashed, so a leaked table gives no working session or link. */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a string is a UUID, so it can be compared with a uuid column without a database error. */
export const isUuid = (value: string): boolean => UUID.test(value);
