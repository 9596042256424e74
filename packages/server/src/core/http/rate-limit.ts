// Rate limits as the service applies them (RATE_LIMIT=<n>/<seconds>s, off by default): each token
// the server knows (each client address for public operations, requests without a token, and
// requests whose token it does not know) may send n requests per window of the given seconds,
// counted from its first request in the window. Over the limit: 429 with Retry-After; every
// answer while a limit is set carries X-RateLimit-Limit, X-RateLimit-Remaining and
// X-RateLimit-Reset (the window's end, epoch seconds).
//
// An unknown token is never a key of its own: made-up tokens count against the address that sends
// them, so guessing tokens is limited like any other traffic of one caller (issue 35). The table
// of windows is bounded in time (ended windows are swept) and in size (past `maxKeys` callers, the
// oldest windows give way), so a flood of distinct callers cannot grow it without end.
import { createHash } from 'node:crypto';

export interface RateLimitSetting {
  limit: number;
  windowSeconds: number;
}

/** `100/60s` → {limit: 100, windowSeconds: 60}; null when unset; throws naming the rule. */
export function parseRateLimit(text: string | undefined | null): RateLimitSetting | null {
  if (text === undefined || text === null || !text.trim()) return null;
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*s\s*$/.exec(text);
  const limit = Number(match?.[1]);
  const windowSeconds = Number(match?.[2]);
  if (!match || limit < 1 || windowSeconds < 1 || limit > 1e9 || windowSeconds > 86_400) {
    throw new Error(`RATE_LIMIT must be <requests>/<seconds>s with both at least 1 (seconds at most 86400), e.g. 100/60s; got "${text}"`);
  }
  return { limit, windowSeconds };
}

export interface RateLimitVerdict {
  allowed: boolean;
  headers: Record<string, string>;
}

/** Callers the table keeps windows for at most (each a short key and two numbers). */
export const MAX_RATE_LIMIT_KEYS = 10_000;

/** Windows of the callers seen, oldest first (a Map keeps insertion order). */
export function createRateLimiter(setting: RateLimitSetting, now: () => number = Date.now, maxKeys = MAX_RATE_LIMIT_KEYS) {
  const windowMs = setting.windowSeconds * 1000;
  const windows = new Map<string, { endsAt: number; count: number }>();
  let sweptAt = 0;
  const sweep = (at: number) => {
    sweptAt = at;
    for (const [key, window] of windows) if (window.endsAt <= at) windows.delete(key);
  };
  return {
    setting,
    /** How many callers the table holds now. */
    get size() { return windows.size; },
    /**
     * The caller's key: a token the server knows (hashed, so the table holds no secret), else the
     * client's address. Pass `token` only once it is known valid.
     */
    keyOf(token: string | null, address: string): string {
      return token ? `token ${createHash('sha256').update(token).digest('base64url').slice(0, 22)}` : `address ${address}`;
    },
    /** Counts one request of `key` and says whether it may pass, with the headers to send. */
    take(key: string): RateLimitVerdict {
      const at = now();
      if (windows.size >= maxKeys || at - sweptAt >= windowMs) sweep(at);
      let window = windows.get(key);
      if (!window || window.endsAt <= at) {
        window = { endsAt: at + windowMs, count: 0 };
        windows.delete(key); // re-inserted last: the table stays ordered by window start
        // Still full of live windows: the oldest gives way (its caller starts a new window).
        if (windows.size >= maxKeys) windows.delete(windows.keys().next().value!);
        windows.set(key, window);
      }
      const allowed = window.count < setting.limit;
      if (allowed) window.count += 1;
      const headers: Record<string, string> = {
        'x-ratelimit-limit': String(setting.limit),
        'x-ratelimit-remaining': String(setting.limit - window.count),
        'x-ratelimit-reset': String(Math.ceil(window.endsAt / 1000)),
      };
      if (!allowed) headers['retry-after'] = String(Math.max(1, Math.ceil((window.endsAt - at) / 1000)));
      return { allowed, headers };
    },
  };
}
