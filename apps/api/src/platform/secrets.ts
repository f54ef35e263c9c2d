import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseSecretsKey } from '../config.js';
import { AppError } from './errors.js';

/**
 * Secrets kept in the database that Sundial must read back (identity providers' client secrets, TOTP
 * seeds) are sealed with AES-256-GCM under the operator's key (SECRETS_KEY). SCIM tokens are not
 * here: only their SHA-256 is stored (`hashSecret`), since Sundial only compares them. Each sealed value names the
 * purpose and row it belongs to (`context`, e.g. `totp:<userId>`), bound in as additional data, so
 * a value copied onto another row or purpose does not open. Sealed text: `v1.<iv>.<ciphertext and
 * tag>`, base64url. Values sealed under SECRETS_KEY_PREVIOUS still open (key rotation: set the new
 * key, move the old one there, and `reseal` what you read).
 */
export interface SecretBox {
  seal(plain: string, context: string): string;
  /** Throws 500 `secret_unreadable` when no key opens it (a wrong key, or tampered text). */
  open(sealed: string, context: string): string;
  /** Whether a sealed value was made under an older key (re-seal it under the current one). */
  isStale(sealed: string, context: string): boolean;
}

const VERSION = 'v1';

export function createSecretBox(key: Buffer, previous: Buffer[] = []): SecretBox {
  for (const k of [key, ...previous]) if (k.length !== 32) throw new Error('A secrets key is 32 bytes');
  const tryOpen = (k: Buffer, sealed: string, context: string): string | undefined => {
    const [version, iv, body] = sealed.split('.');
    if (version !== VERSION || !iv || !body) return undefined;
    try {
      const bytes = Buffer.from(body, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', k, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  };
  return {
    seal(plain, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${VERSION}.${iv.toString('base64url')}.${body.toString('base64url')}`;
    },
    open(sealed, context) {
      for (const k of [key, ...previous]) {
        const plain = tryOpen(k, sealed, context);
        if (plain !== undefined) return plain;
      }
      throw new AppError('secret_unreadable', 'A stored secret could not be read: was SECRETS_KEY changed?', {
        status: 500,
      });
    },
    isStale(sealed, context) {
      return tryOpen(key, sealed, context) === undefined;
    },
  };
}

/**
 * The key: SECRETS_KEY when set; in tests one made for the process; otherwise the one in
 * `<DATA_DIR>/secrets.key`, made there (readable by its owner only) on the first start, which suits
 * one process (`npm start`). Several processes sharing a database must all be given SECRETS_KEY.
 */
export function loadSecretsKey(options: {
  key: Buffer | undefined;
  nodeEnv: string;
  dataDir: string;
  onCreated?: (file: string) => void;
}): Buffer {
  if (options.key) return options.key;
  if (options.nodeEnv === 'test') return randomBytes(32);
  const file = path.resolve(options.dataDir, 'secrets.key');
  if (existsSync(file)) {
    const key = parseSecretsKey(readFileSync(file, 'utf8'));
    if (!key) throw new Error(`${file} does not hold a 32-byte key (64 hex digits)`);
    return key;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  options.onCreated?.(file);
  return parseSecretsKey(readFileSync(file, 'utf8')) as Buffer;
}
