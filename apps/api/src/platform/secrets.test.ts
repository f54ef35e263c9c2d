import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, parseSecretsKey } from '../config.js';
import { createSecretBox, loadSecretsKey } from './secrets.js';

const key = randomBytes(32);

describe('the secret box', () => {
  it('opens what it sealed, and the sealed text holds nothing of the secret', () => {
    const box = createSecretBox(key);
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'totp:user-1');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.seal('JBSWY3DPEHPK3PXP', 'totp:user-1')).not.toBe(sealed);
    expect(box.open(sealed, 'totp:user-1')).toBe('JBSWY3DPEHPK3PXP');
  });

  it('refuses another row or purpose, another key and tampered text', () => {
    const box = createSecretBox(key);
    const sealed = box.seal('s3cret', 'scim:ws-1');
    expect(() => box.open(sealed, 'scim:ws-2')).toThrow(/SECRETS_KEY/);
    expect(() => createSecretBox(randomBytes(32)).open(sealed, 'scim:ws-1')).toThrow(/SECRETS_KEY/);
    const [v, iv, body] = sealed.split('.') as [string, string, string];
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => box.open(`${v}.${iv}.${flipped.toString('base64url')}`, 'scim:ws-1')).toThrow();
    expect(() => box.open('plain text', 'scim:ws-1')).toThrow();
  });

  it('opens what an earlier key sealed, and says it is stale', () => {
    const old = createSecretBox(key).seal('client-secret', 'idp:1');
    const rotated = createSecretBox(randomBytes(32), [key]);
    expect(rotated.open(old, 'idp:1')).toBe('client-secret');
    expect(rotated.isStale(old, 'idp:1')).toBe(true);
    expect(rotated.isStale(rotated.seal('client-secret', 'idp:1'), 'idp:1')).toBe(false);
  });
});

describe('the secrets key', () => {
  it('reads 64 hex digits or 32 bytes of base64url, and nothing else', () => {
    expect(parseSecretsKey(key.toString('hex'))).toEqual(key);
    expect(parseSecretsKey(key.toString('base64url'))).toEqual(key);
    expect(parseSecretsKey('short')).toBeUndefined();
    expect(() => loadConfig({ SECRETS_KEY: 'short' })).toThrow(/SECRETS_KEY: must be 64 hex digits/);
    expect(loadConfig({ SECRETS_KEY: key.toString('hex') }).secretsKey).toEqual(key);
  });

  it('is made once in the data directory, readable by its owner only, when none is set', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'sundial-secrets-'));
    const made: string[] = [];
    const first = loadSecretsKey({ key: undefined, nodeEnv: 'production', dataDir, onCreated: (f) => made.push(f) });
    const again = loadSecretsKey({ key: undefined, nodeEnv: 'production', dataDir, onCreated: (f) => made.push(f) });
    expect(again).toEqual(first);
    expect(made).toEqual([path.join(dataDir, 'secrets.key')]);
    expect(statSync(made[0] as string).mode & 0o777).toBe(0o600);
    expect(readFileSync(made[0] as string, 'utf8').trim()).toBe(first.toString('hex'));
    expect(loadSecretsKey({ key, nodeEnv: 'production', dataDir })).toEqual(key);
  });
});
