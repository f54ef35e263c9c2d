import { describe, expect, it } from 'vitest';
import {
  COUNTRIES,
  checkVatId,
  EU_COUNTRIES,
  findCountryName,
  isCountryCode,
  isEuCountry,
  isValidPostalCode,
  isValidVatId,
  normalizeVatId,
  vatPrefix,
} from './countries.js';

describe('the country list', () => {
  it('holds the whole ISO 3166-1 list once, with upper-case alpha-2 codes', () => {
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(249);
    const codes = COUNTRIES.map((country) => country.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(new Set(COUNTRIES.map((country) => country.name)).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[A-Z]{2}$/);
  });

  it('is sorted by English name', () => {
    const names = COUNTRIES.map((country) => country.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    expect(names[0]).toBe('Afghanistan');
  });

  it('names countries by their correct codes, India once', () => {
    expect(COUNTRIES.filter((country) => country.name === 'India')).toEqual([{ code: 'IN', name: 'India' }]);
    expect(findCountryName('DE')).toBe('Germany');
    expect(findCountryName('GR')).toBe('Greece');
    expect(findCountryName('GB')).toBe('United Kingdom');
    expect(findCountryName('CH')).toBe('Switzerland');
    expect(findCountryName('EL')).toBeUndefined();
    expect(isCountryCode('US')).toBe(true);
    expect(isCountryCode('us')).toBe(false);
    expect(isCountryCode('UK')).toBe(false);
  });
});

describe('EU countries', () => {
  it('are the 27 member states, all in the country list', () => {
    expect(EU_COUNTRIES).toHaveLength(27);
    for (const code of EU_COUNTRIES) expect(isCountryCode(code)).toBe(true);
    expect(isEuCountry('FR')).toBe(true);
    expect(isEuCountry('GR')).toBe(true);
    expect(isEuCountry('EL')).toBe(false);
    expect(isEuCountry('GB')).toBe(false);
    expect(isEuCountry('CH')).toBe(false);
    expect(isEuCountry('NO')).toBe(false);
  });

  it('prefix VAT ids with their code, except Greece with EL', () => {
    expect(vatPrefix('GR')).toBe('EL');
    expect(vatPrefix('DE')).toBe('DE');
  });
});

describe('postal codes', () => {
  it('follow the country rule where one is known', () => {
    expect(isValidPostalCode('10115', 'DE')).toBe(true);
    expect(isValidPostalCode('1011', 'DE')).toBe(false);
    expect(isValidPostalCode('1012 AB', 'NL')).toBe(true);
    expect(isValidPostalCode('00-950', 'PL')).toBe(true);
    expect(isValidPostalCode('SW1A 1AA', 'GB')).toBe(true);
    expect(isValidPostalCode('K1A 0B1', 'CA')).toBe(true);
    expect(isValidPostalCode('12345', 'US')).toBe(true);
    expect(isValidPostalCode('1234', 'US')).toBe(false);
  });

  it('are text of letters, digits, spaces and dashes elsewhere', () => {
    expect(isValidPostalCode('1234-5', 'AO')).toBe(true);
    expect(isValidPostalCode('AB 12', 'AO')).toBe(true);
    expect(isValidPostalCode('12#4', 'AO')).toBe(false);
    expect(isValidPostalCode('-12', 'AO')).toBe(false);
    expect(isValidPostalCode('', 'AO')).toBe(false);
    expect(isValidPostalCode('1234567890123', 'AO')).toBe(false);
  });
});

describe('VAT ids', () => {
  it.each([
    ['ATU13585627', 'AT'],
    ['BE0411905847', 'BE'],
    ['DE136695976', 'DE'],
    ['DK13585628', 'DK'],
    ['EL094259216', 'GR'],
    ['ESA28015865', 'ES'],
    ['FR40303265045', 'FR'],
    ['IE6388047V', 'IE'],
    ['IT00743110157', 'IT'],
    ['NL004495445B01', 'NL'],
    ['PL5260250995', 'PL'],
    ['SE556703748501', 'SE'],
  ] as const)('accepts %s for %s', (vatId, country) => {
    expect(checkVatId(vatId, country)).toEqual({ ok: true, vatId });
  });

  it('normalises spaces, dots, dashes and case, and adds a missing prefix', () => {
    expect(normalizeVatId('de 136.695-976', 'DE')).toBe('DE136695976');
    expect(checkVatId('0411905847', 'BE')).toEqual({ ok: true, vatId: 'BE0411905847' });
    expect(checkVatId('094259216', 'GR')).toEqual({ ok: true, vatId: 'EL094259216' });
  });

  it('refuses an id of another country with a message naming the prefix', () => {
    expect(checkVatId('DE136695976', 'FR')).toEqual({
      ok: false,
      reason: 'wrong_country',
      message: 'A VAT ID from France starts with FR. Check the ID or the country.',
    });
    expect(checkVatId('GR094259216', 'GR')).toMatchObject({ ok: false, reason: 'wrong_country' });
  });

  it('refuses a wrong check digit or format', () => {
    expect(checkVatId('DE136695977', 'DE')).toEqual({
      ok: false,
      reason: 'invalid',
      message: 'This is not a valid VAT ID of Germany: they look like DE123456789. Check the letters and digits.',
    });
    expect(checkVatId('DE1366', 'DE')).toMatchObject({ ok: false, reason: 'invalid' });
    expect(isValidVatId('DE136695976', 'DE')).toBe(true);
    expect(isValidVatId('DE136695977', 'DE')).toBe(false);
    expect(isValidVatId('GB980780684', 'GB')).toBe(false);
  });
});
