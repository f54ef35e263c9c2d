import { messages } from './messages.js';

export const PASSWORD_MIN_LENGTH = 9;
export const PASSWORD_MAX_LENGTH = 128;

/**
 * The shape rule of DECISIONS.md: at least 9 characters, a digit and a character that is
 * neither a letter nor a digit. Returns the message to show, or undefined when the shape is fine.
 * The breached-password check needs a word list and runs on the server only.
 */
export function checkPasswordShape(password: string): string | undefined {
  if (password.length > PASSWORD_MAX_LENGTH) return messages.passwordTooLong;
  const long = [...password].length >= PASSWORD_MIN_LENGTH;
  const hasDigit = /\p{Nd}/u.test(password);
  const hasSymbol = /[^\p{L}\p{Nd}]/u.test(password);
  return long && hasDigit && hasSymbol ? undefined : messages.passwordRule;
}
