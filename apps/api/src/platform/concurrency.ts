import { AppError } from './errors.js';

/** One cap: at most `limit` at once under `key`; `message` tells the person refused what to do. */
export interface ConcurrencyRule {
  key: string;
  limit: number;
  message: string;
}

/**
 * Caps on work under way at once in this process (exports being made or sent, for instance),
 * per key: a user, a workspace, the process. Unlike the rate limits (platform/rate-limits.ts) it
 * counts what is running now, not what started in a window, so it lives in memory: each process
 * counts its own.
 */
export function createConcurrencyLimits(code: string, retryAfterSeconds: number) {
  const running = new Map<string, number>();
  return {
    /**
     * Takes one place under every rule, or throws 429 `code` (with Retry-After) with the message of
     * the first rule that is full, taking none. Answers the release (calling it twice releases once).
     */
    enter(rules: readonly ConcurrencyRule[]): () => void {
      const full = rules.find((rule) => (running.get(rule.key) ?? 0) >= rule.limit);
      if (full)
        throw new AppError(code, full.message, {
          status: 429,
          headers: { 'retry-after': String(retryAfterSeconds) },
        });
      for (const rule of rules) running.set(rule.key, (running.get(rule.key) ?? 0) + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        for (const rule of rules) {
          const left = (running.get(rule.key) ?? 1) - 1;
          if (left > 0) running.set(rule.key, left);
          else running.delete(rule.key);
        }
      };
    },
  };
}
