/**
 * The letters on a person's avatar: the first letters of their first and last names ("Olivia
 * Owner" → "OO"), the first letter of a one-word name, and the same from the part of the e-mail
 * address before the @ when they have no name.
 */
export function initialsOf(name: string, email: string): string {
  const source = name.trim() || (email.split('@')[0] ?? '');
  const words = source.split(name.trim() ? /\s+/ : /[\s._+-]+/).filter((word) => /\p{L}|\p{N}/u.test(word));
  const first = words[0];
  const last = words.length > 1 ? words[words.length - 1] : undefined;
  const letter = (word: string | undefined) =>
    word ? (Array.from(word.replace(/^[^\p{L}\p{N}]+/u, ''))[0] ?? '') : '';
  return (letter(first) + letter(last)).toLocaleUpperCase() || '?';
}
