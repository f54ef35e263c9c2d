import { describe, expect, it } from 'vitest';
import { limitMessages, waitText } from './messages.js';

describe('waitText', () => {
  it.each([
    [0.2, '1 second'],
    [1, '1 second'],
    [42, '42 seconds'],
    [60, '1 minute'],
    [61, '2 minutes'],
    [2520, '42 minutes'],
    [5340, '89 minutes'],
    [5400, '2 hours'],
    [86_400, '24 hours'],
  ])('says %s seconds as "%s"', (seconds, text) => {
    expect(waitText(seconds)).toBe(text);
  });

  it('reads as a sentence inside a limit message', () => {
    expect(limitMessages.signupPerIp(waitText(2520))).toBe(
      'Too many sign-ups from your network. Please try again in 42 minutes.',
    );
  });
});
