// The service's rate-limit headers, read from any answer: X-RateLimit-Limit, X-RateLimit-Remaining
// and X-RateLimit-Reset (epoch seconds). They tell the caller how much of its budget is left; the
// retry (retry.ts) waits for the reset when a 429 has no usable Retry-After.

export interface RateLimit {
  /** Requests the window allows. */
  limit: number;
  /** Requests left in the window. */
  remaining: number;
  /** When the window ends, in seconds since the Unix epoch. */
  resetAt: number;
  /** Milliseconds from now until the window ends (0 when it has). */
  resetInMs: number;
}

/** The rate limit an answer reports, or undefined when it carries no well-formed X-RateLimit-* headers. */
export function readRateLimit(response: Pick<Response, 'headers'>, now: number = Date.now()): RateLimit | undefined {
  // (NaN, for a missing or malformed header, fails every comparison.)
  const [limit, remaining, resetAt] = ['limit', 'remaining', 'reset'].map((name) => {
    const value = response.headers.get(`x-ratelimit-${name}`);
    return value && /^\d+$/.test(value) ? +value : NaN;
  }) as [number, number, number];
  return limit >= 0 && remaining >= 0 && resetAt >= 0 ? { limit, remaining, resetAt, resetInMs: Math.max(0, resetAt * 1000 - now) } : undefined;
}
