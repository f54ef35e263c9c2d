import { describe, expect, it } from 'vitest';
import { instantSchema, isInstantInRange, isStorableText, text, textMessages } from './text.js';

describe('isStorableText', () => {
  it('refuses NUL and unpaired surrogates, and keeps every real character', () => {
    for (const bad of ['\u0000', 'a\u0000b', '\ud800', 'x\udc00', '\udc00\ud800', 'ok\ud83d']) {
      expect(isStorableText(bad), JSON.stringify(bad)).toBe(false);
    }
    for (const good of ['', 'Café', '🌞', '設計', 'tab\tline\nend', '\u0001', '\ufffd']) {
      expect(isStorableText(good), good).toBe(true);
    }
  });
});

describe('text()', () => {
  const name = text({ min: 1, max: 5, required: 'Name is required.', tooLong: 'Too long.' });

  it('trims, then checks the bounds with the given messages', () => {
    expect(name.parse('  Ann ')).toBe('Ann');
    expect(name.safeParse('   ').error?.issues[0]?.message).toBe('Name is required.');
    expect(name.safeParse('Annabel').error?.issues[0]?.message).toBe('Too long.');
    expect(name.safeParse(undefined).error?.issues[0]?.message).toBe('Name is required.');
  });

  it('says the text cannot be stored, once, before any other rule', () => {
    const issues = name.safeParse('\u0000\u0000\u0000\u0000\u0000\u0000').error?.issues ?? [];
    expect(issues.map((i) => i.message)).toEqual([textMessages.unstorable]);
  });

  it('keeps white space when asked (passwords)', () => {
    expect(text({ trim: false, max: 10 }).parse(' pw ')).toBe(' pw ');
  });
});

describe('instants', () => {
  it('are ISO date-times with an offset in the years 1970 to 9999', () => {
    expect(instantSchema.parse('2026-11-24T09:00:00+01:00')).toBe('2026-11-24T09:00:00+01:00');
    for (const bad of ['0000-01-01T00:00:00Z', '1969-12-31T23:59:59Z', '+010000-01-01T00:00:00Z']) {
      expect(instantSchema.safeParse(bad).success, bad).toBe(false);
    }
    expect(instantSchema.safeParse('1900-01-01T00:00:00Z').error?.issues[0]?.message).toBe(textMessages.dateOutOfRange);
    expect(isInstantInRange(Date.parse('9999-12-31T23:59:59.999Z'))).toBe(true);
    expect(isInstantInRange(Number.NaN)).toBe(false);
  });
});
