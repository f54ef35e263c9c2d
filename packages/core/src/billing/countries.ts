import countries from 'i18n-iso-countries';
// The attribute lets plain Node load it too: the built API keeps npm packages external.
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import { checkVAT, countries as vatCountries } from 'jsvat';
import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator';

countries.registerLocale(en);

/** A country of the ISO 3166-1 list: its alpha-2 code ("DE") and English name ("Germany"). */
export interface Country {
  code: string;
  name: string;
}

/** Every ISO 3166-1 country, one entry per alpha-2 code, sorted by English name. */
export const COUNTRIES: readonly Country[] = Object.entries(countries.getNames('en', { select: 'official' }))
  .map(([code, name]) => ({ code, name }))
  .sort((a, b) => a.name.localeCompare(b.name, 'en'));

const NAMES = new Map(COUNTRIES.map((country) => [country.code, country.name]));

/** Whether a string is an ISO 3166-1 alpha-2 code we list ("DE"; upper case only). */
export function isCountryCode(code: string): boolean {
  return NAMES.has(code);
}

/** The English name of a country code ("DE" -> "Germany"), or undefined for an unknown code. */
export function findCountryName(code: string): string | undefined {
  return NAMES.get(code);
}

/** The 27 member states of the European Union (ISO codes: Greece is GR here, EL only in VAT ids). */
export const EU_COUNTRIES = [
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
] as const;
export type EuCountry = (typeof EU_COUNTRIES)[number];

export function isEuCountry(code: string): code is EuCountry {
  return (EU_COUNTRIES as readonly string[]).includes(code);
}

/** The two letters EU VAT ids of a country start with: its ISO code, except EL for Greece. */
export function vatPrefix(country: EuCountry): string {
  return country === 'GR' ? 'EL' : country;
}

const POSTAL_TEXT = /^[A-Za-z0-9](?:[A-Za-z0-9 -]*[A-Za-z0-9])?$/;

/**
 * Whether a postal code fits the country: by the country's rule where `postcode-validator`
 * knows one, else as text of letters, digits, spaces and dashes (at most 12 characters).
 */
export function isValidPostalCode(postalCode: string, country: string): boolean {
  const value = postalCode.trim();
  if (value.length === 0 || value.length > 12 || !POSTAL_TEXT.test(value)) return false;
  return postcodeValidatorExistsForCountry(country) ? postcodeValidator(value, country) : true;
}

/** A VAT id without spaces, dots or dashes, in upper case, with the country's prefix added when missing. */
export function normalizeVatId(vatId: string, country: EuCountry): string {
  const compact = vatId.replace(/[\s.-]/g, '').toUpperCase();
  return /^[A-Z]{2}/.test(compact) ? compact : `${vatPrefix(country)}${compact}`;
}

export type VatIdCheck =
  | { ok: true; vatId: string }
  | { ok: false; reason: 'wrong_country' | 'invalid'; message: string };

export const vatIdMessages = {
  wrongCountry: (prefix: string, country: string) =>
    `A VAT ID from ${country} starts with ${prefix}. Check the ID or the country.`,
  invalid: (country: string, example: string) =>
    `This is not a valid VAT ID of ${country}: they look like ${example}. Check the letters and digits.`,
} as const;

const VAT_EXAMPLES: Record<EuCountry, string> = {
  AT: 'ATU12345678',
  BE: 'BE0123456789',
  BG: 'BG123456789',
  HR: 'HR12345678901',
  CY: 'CY12345678X',
  CZ: 'CZ12345678',
  DK: 'DK12345678',
  EE: 'EE123456789',
  FI: 'FI12345678',
  FR: 'FR12345678901',
  DE: 'DE123456789',
  GR: 'EL123456789',
  HU: 'HU12345678',
  IE: 'IE1234567X',
  IT: 'IT12345678901',
  LV: 'LV12345678901',
  LT: 'LT123456789',
  LU: 'LU12345678',
  MT: 'MT12345678',
  NL: 'NL123456789B01',
  PL: 'PL1234567890',
  PT: 'PT123456789',
  RO: 'RO1234567',
  SK: 'SK1234567890',
  SI: 'SI12345678',
  ES: 'ESX1234567X',
  SE: 'SE123456789001',
};

/**
 * Checks an EU VAT id with `jsvat` (its format and check digits) and that its prefix is the
 * country's (EL for Greece). Returns the normalised id ("DE 123.456.789" -> "DE123456789").
 */
export function checkVatId(vatId: string, country: EuCountry): VatIdCheck {
  const value = normalizeVatId(vatId, country);
  const prefix = vatPrefix(country);
  const name = findCountryName(country) ?? country;
  if (!value.startsWith(prefix))
    return { ok: false, reason: 'wrong_country', message: vatIdMessages.wrongCountry(prefix, name) };
  const rules = vatCountries.filter((rule) => rule.codes[0] === country);
  if (!checkVAT(value, rules).isValid)
    return { ok: false, reason: 'invalid', message: vatIdMessages.invalid(name, VAT_EXAMPLES[country]) };
  return { ok: true, vatId: value };
}

/** Whether a VAT id is valid for an EU country (see checkVatId). */
export function isValidVatId(vatId: string, country: string): boolean {
  return isEuCountry(country) && checkVatId(vatId, country).ok;
}
