import { describe, expect, it } from 'vitest';
import { createConcurrencyLimits } from './concurrency.js';
import { AppError } from './errors.js';

describe('concurrency limits', () => {
  const rules = (user: string) => [
    { key: `user:${user}`, limit: 1, message: 'You already have a download under way.' },
    { key: 'workspace:w', limit: 2, message: 'This workspace already has 2 downloads under way.' },
  ];

  it('refuses with 429, Retry-After and the first full rule’s message, taking no place', () => {
    const limits = createConcurrencyLimits('too_many_exports', 5);
    const ann = limits.enter(rules('ann'));
    const refused = (() => {
      try {
        limits.enter(rules('ann'));
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'too_many_exports', status: 429, message: rules('ann')[0]?.message });
    expect((refused as AppError).headers).toEqual({ 'retry-after': '5' });
    // The refusal took no workspace place: Bob still gets the second one.
    const bob = limits.enter(rules('bob'));
    expect(() => limits.enter(rules('cy'))).toThrow('This workspace already has 2 downloads under way.');
    ann();
    ann(); // released twice, freed once
    limits.enter(rules('cy'));
    expect(() => limits.enter(rules('dee'))).toThrow('This workspace already has 2 downloads under way.');
    bob();
  });
});
