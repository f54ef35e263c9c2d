import { describe, expect, it } from 'vitest';
import { messages } from './messages.js';
import { checkPasswordShape } from './password.js';

describe('password shape', () => {
  it.each(['Tidal-wave-42', 'long enough 1', 'ünïcödé-pass-9', '12345678a!'])('accepts %s', (password) => {
    expect(checkPasswordShape(password)).toBeUndefined();
  });

  it.each([
    ['8 characters', 'abcd12!x'],
    ['no digit', 'abcdefgh!'],
    ['no symbol', 'abcdefgh1'],
    ['empty', ''],
  ])('refuses a password with %s', (_why, password) => {
    expect(checkPasswordShape(password)).toBe(messages.passwordRule);
  });

  it('refuses a password over 128 characters', () => {
    expect(checkPasswordShape(`${'a'.repeat(127)}1!`)).toBe(messages.passwordTooLong);
  });
});
