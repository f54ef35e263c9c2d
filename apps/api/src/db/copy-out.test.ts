import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { inlineParameters } from './copy-out.js';

const compiled = (sql: string, parameters: unknown[]) => CompiledQuery.raw(sql, parameters);

describe('inlineParameters', () => {
  it('writes each parameter as the quoted text node-postgres would send, $10 before $1', () => {
    const params = ['a', 2, true, null, new Date('2026-11-25T10:00:00.000Z'), 6, 7, 8, 9, 'ten'];
    const text = inlineParameters(compiled('select $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $1', params));
    expect(text).toBe("select 'a', '2', 'true', null, '2026-11-25T10:00:00.000Z', '6', '7', '8', '9', 'ten', 'a'");
  });

  it('escapes quotes and backslashes, so a value can never end its literal', () => {
    expect(inlineParameters(compiled('select $1', ["O'Brien'); drop table users; --"]))).toBe(
      "select 'O''Brien''); drop table users; --'",
    );
    // A backslash makes it an escape string (E'…', the driver's own spacing), its backslash doubled.
    expect(inlineParameters(compiled('select $1', ['back\\slash']))).toBe("select  E'back\\\\slash'");
  });

  it('writes arrays as array literals, quoting every element', () => {
    expect(inlineParameters(compiled('select $1::text[]', [['a', 'b"c', null]]))).toBe(
      `select  E'{"a","b\\\\"c",NULL}'::text[]`,
    );
    expect(inlineParameters(compiled('select $1::uuid[]', [['a', 'b']]))).toBe(`select '{"a","b"}'::uuid[]`);
  });

  it('refuses a parameter the statement does not have, or a number that is not one', () => {
    expect(() => inlineParameters(compiled('select $2', ['only one']))).toThrow(/no parameter \$2/);
    expect(() => inlineParameters(compiled('select $1', [Number.NaN]))).toThrow(/cannot inline/);
  });
});
