import { hash, verify } from '@node-rs/argon2';
import { checkPasswordShape, messages } from '@sundial/core';
import { dictionary } from '@zxcvbn-ts/language-common';

// @node-rs/argon2's defaults are argon2id with OWASP's parameters (19 MiB, 2 passes, 1 lane).
export const hashPassword = (password: string): Promise<string> => hash(password);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// A hash of nothing anybody knows, verified when the account does not exist so that the
// answer takes as long as for a real account.
let decoyHash: Promise<string> | undefined;
export async function verifyDecoy(password: string): Promise<void> {
  decoyHash ??= hash('decoy password that no account has 1!');
  await verifyPassword(await decoyHash, password);
}

const common = new Set(dictionary['passwords-common'] as string[]);
const unLeet: Record<string, string> = {
  '@': 'a',
  '4': 'a',
  '0': 'o',
  '1': 'i',
  '!': 'i',
  '3': 'e',
  $: 's',
  '5': 's',
  '7': 't',
};

/** The word a password is built on: lower case, leetspeak undone, outer digits and symbols cut. */
function baseWord(password: string): string {
  const lower = password.toLowerCase();
  const trimmed = lower.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
  return [...trimmed].map((c) => unLeet[c] ?? c).join('');
}

/** Whether a password is, or is a thin disguise of, a commonly breached one. */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  if (common.has(lower)) return true;
  const base = baseWord(password);
  return base.length >= 4 && common.has(base) && password.length <= base.length + 4;
}

/** The shape rule of DECISIONS.md plus the breached-password check; undefined when acceptable. */
export function checkNewPassword(password: string): string | undefined {
  return checkPasswordShape(password) ?? (isCommonPassword(password) ? messages.passwordCommon : undefined);
}
