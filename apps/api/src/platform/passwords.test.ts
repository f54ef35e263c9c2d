import { describe, expect, it } from 'vitest';
import { checkNewPassword, hashPassword, isCommonPassword, verifyPassword } from './passwords.js';

describe('breached passwords', () => {
  it.each(['password123!', 'P@ssw0rd123', 'Qwerty123!', 'iloveyou-1'])('recognises %s as common', (password) => {
    expect(isCommonPassword(password)).toBe(true);
  });

  it.each(['Tidal-wave-42', 'correct horse battery 9', 'Sunny-days-2026!'])('lets %s through', (password) => {
    expect(isCommonPassword(password)).toBe(false);
    expect(checkNewPassword(password)).toBeUndefined();
  });
});

describe('argon2id hashing', () => {
  it('verifies the right password only', async () => {
    const hash = await hashPassword('Tidal-wave-42');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, 'Tidal-wave-42')).toBe(true);
    expect(await verifyPassword(hash, 'Tidal-wave-43')).toBe(false);
    expect(await verifyPassword('not a hash', 'x')).toBe(false);
  });
});
