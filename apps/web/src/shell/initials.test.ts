import { describe, expect, it } from 'vitest';
import { initialsOf } from './initials';

describe('initialsOf', () => {
  it('takes the first letters of the first and last names', () => {
    expect(initialsOf('Olivia Owner', 'olivia@example.org')).toBe('OO');
    expect(initialsOf('  anna maria de la cruz ', 'a@example.org')).toBe('AC');
  });

  it('takes the first letter of a one-word name', () => {
    expect(initialsOf('Olivia', 'olivia@example.org')).toBe('O');
  });

  it('uses the e-mail address when there is no name', () => {
    expect(initialsOf('', 'olivia.owner@example.org')).toBe('OO');
    expect(initialsOf('   ', 'cleo@example.org')).toBe('C');
  });

  it('keeps letters outside the basic alphabet whole', () => {
    expect(initialsOf('Łukasz Żuk', 'l@example.org')).toBe('ŁŻ');
    expect(initialsOf('(Émile) Zola', 'e@example.org')).toBe('ÉZ');
  });
});
