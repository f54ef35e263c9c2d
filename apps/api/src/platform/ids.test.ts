import { describe, expect, it } from 'vitest';
import { isUuid, nameId, newId } from './ids.js';

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

describe('nameId', () => {
  it('gives one name the same v8 UUID every time, and other names others', () => {
    const id = nameId('starter-category:w1:0');
    expect(nameId('starter-category:w1:0')).toBe(id);
    expect(isUuid(id)).toBe(true);
    expect(id[14]).toBe('8');
    expect('89ab').toContain(id[19]);
    const others = Array.from({ length: 200 }, (_, i) => nameId(`starter-category:w1:${i + 1}`));
    expect(new Set([id, ...others]).size).toBe(201);
    expect(others.every((other) => isUuid(other) && other[14] === '8' && '89ab'.includes(other[19] ?? ''))).toBe(true);
  });
});
