/** One counter of one fixed window of one limit (platform/rate-limits.ts). */
export interface RateLimitHitsTable {
  /** What is counted, e.g. `signup:ip:203.0.113.7`; e-mail addresses appear only hashed. */
  bucket: string;
  window_start: Date;
  window_end: Date;
  hits: number;
}

/** Tables of the abuse limits. */
export interface RateLimitsTables {
  rate_limit_hits: RateLimitHitsTable;
}
