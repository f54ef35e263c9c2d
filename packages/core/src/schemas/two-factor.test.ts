import { describe, expect, it } from 'vitest';
import { describeUserAgent, loginSecondStepBody, recoveryCode, secondFactorBody, totpCode } from './two-factor.js';

describe('two-factor schemas', () => {
  it('takes a 6-digit code with spaces, and a recovery code with any case and dashes', () => {
    expect(totpCode.parse(' 123 456 ')).toBe('123456');
    expect(totpCode.safeParse('12345').success).toBe(false);
    expect(recoveryCode.parse('ABCDE-fgh23')).toBe('abcdefgh23');
    expect(recoveryCode.safeParse('abcde-fgh18').success).toBe(false);
  });

  it('wants exactly one factor', () => {
    expect(secondFactorBody.safeParse({}).success).toBe(false);
    expect(secondFactorBody.safeParse({ code: '123456', recoveryCode: 'abcde-fghij' }).success).toBe(false);
    expect(secondFactorBody.safeParse({ recoveryCode: 'abcde-fghij' }).success).toBe(true);
    expect(loginSecondStepBody.safeParse({ challenge: 'x'.repeat(43), code: '123456' }).success).toBe(true);
  });
});

describe('describeUserAgent', () => {
  it('names the browser and system of common user agents', () => {
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 Edg/131.0',
      ),
    ).toBe('Edge on Windows');
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      ),
    ).toBe('Safari on macOS');
    expect(describeUserAgent('Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0')).toBe(
      'Firefox on Linux',
    );
    expect(describeUserAgent(null)).toBe('Unknown device');
    expect(describeUserAgent('something else')).toBe('Unknown device');
  });
});
