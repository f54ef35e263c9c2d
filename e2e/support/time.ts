/**
 * How much slower than a quiet two-core machine the journeys may run. CI machines are shared and
 * were measured at 3.1x (accessibility.spec.ts: 147 s of journey time here, 463 s on CI), which put
 * journeys of 25 s past the one-minute default on both tries. E2E_TIME_SCALE overrides it.
 */
export const TIME_SCALE = Number(process.env.E2E_TIME_SCALE ?? (process.env.CI ? 3 : 1));

/** A time budget measured on a quiet machine, stretched to the machine the journeys run on. */
export function allow(ms: number): number {
  return Math.round(ms * TIME_SCALE);
}
