// The rate limiter's table (core/http/rate-limit.ts): bounded in size under a flood of distinct
// callers, and in time (ended windows are swept), while a caller within the bound keeps its count.
import { describe, expect, it } from 'vitest';
import { createRateLimiter } from '../../src/core/http/rate-limit.js';

describe('the rate limiter\'s table', () => {
  it('keeps at most maxKeys callers under a flood of distinct ones', () => {
    const limiter = createRateLimiter({ limit: 2, windowSeconds: 60 }, () => 1_000, 100);
    for (let i = 0; i < 10_000; i++) limiter.take(`address 10.0.${i >> 8}.${i & 255}`);
    expect(limiter.size).toBe(100);
  });

  it('sweeps ended windows, and counts a caller within its window', () => {
    let now = 0;
    const limiter = createRateLimiter({ limit: 2, windowSeconds: 60 }, () => now, 1_000);
    for (let i = 0; i < 500; i++) limiter.take(`address a${i}`);
    expect([limiter.take('address x').allowed, limiter.take('address x').allowed, limiter.take('address x').allowed]).toEqual([true, true, false]);
    expect(limiter.size).toBe(501);
    now += 60_000;
    expect(limiter.take('address x').allowed).toBe(true);
    expect(limiter.size).toBe(1);
  });

  it('keys a token by its hash, never as sent, and no token by the address', () => {
    const limiter = createRateLimiter({ limit: 1, windowSeconds: 1 });
    expect(limiter.keyOf('secret-token', '127.0.0.1')).toMatch(/^token [\w-]{22}$/);
    expect(limiter.keyOf('secret-token', '127.0.0.1')).not.toContain('secret');
    expect(limiter.keyOf(null, '127.0.0.1')).toBe('address 127.0.0.1');
  });
});
