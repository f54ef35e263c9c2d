import { describe, expect, it } from 'vitest';
import { isUuid, newId } from './ids.js';

describe('newId', () => {
  it('makes distinct, time-ordered v7 UUIDs past many refills of its random words', () => {
    const ids = Array.from({ length: 5000 }, () => newId());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(isUuid(id)).toBe(true);
      expect(id[14]).toBe('7');
      expect('89ab').toContain(id[19]);
    }
    expect([...ids].sort()).toEqual(ids);
    // The random part varies: not one repeated word.
    expect(new Set(ids.map((id) => id.slice(-12))).size).toBe(ids.length);
  });
});
