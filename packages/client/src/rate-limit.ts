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

const count = (value: string | null) => (value !== null && /^\d+$/.test(value.trim()) ? Number(value) : undefined);

/** The rate limit an answer reports, or undefined when it carries no well-formed X-RateLimit-* headers. */
export function readRateLimit(response: Pick<Response, 'headers'>, now: number = Date.now()): RateLimit | undefined {
  const limit = count(response.headers.get('x-ratelimit-limit'));
  const remaining = count(response.headers.get('x-ratelimit-remaining'));
  const resetAt = count(response.headers.get('x-ratelimit-reset'));
  if (limit === undefined || remaining === undefined || resetAt === undefined) return undefined;
  return { limit, remaining, resetAt, resetInMs: Math.max(0, resetAt * 1000 - now) };
}
