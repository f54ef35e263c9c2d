import { describe, expect, it } from 'vitest';
import { acceptsEncoding } from './downloads.js';

describe('acceptsEncoding', () => {
  it('takes an encoding named, or taken by *, with a q above 0', () => {
    expect(acceptsEncoding('gzip, deflate, br, zstd', 'gzip')).toBe(true);
    expect(acceptsEncoding('br;q=1.0, GZIP;q=0.5', 'gzip')).toBe(true);
    expect(acceptsEncoding('*', 'gzip')).toBe(true);
    expect(acceptsEncoding('br, *;q=0.1', 'gzip')).toBe(true);
  });

  it('refuses an encoding absent, at q=0, or left out by *;q=0', () => {
    expect(acceptsEncoding(undefined, 'gzip')).toBe(false);
    expect(acceptsEncoding('', 'gzip')).toBe(false);
    expect(acceptsEncoding('identity', 'gzip')).toBe(false);
    expect(acceptsEncoding('br, deflate', 'gzip')).toBe(false);
    expect(acceptsEncoding('gzip;q=0, *', 'gzip')).toBe(false);
    expect(acceptsEncoding('*;q=0', 'gzip')).toBe(false);
    expect(acceptsEncoding('x-gzip', 'gzip')).toBe(false);
  });
});
