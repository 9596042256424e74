// Waiting and running side by side: no state of a run, unit-tested on their own.
import type { Answer } from './http.js';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `work` on every item, at most `size` at a time, in the items' order of start. */
export async function pool<T>(items: T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.max(1, Math.min(size, items.length)) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(runners);
}

/** How long an answer asks to wait (Retry-After: seconds or an HTTP date), at most `cap`; 1 s (capped) without the header. */
export function retryAfterMs(answer: Pick<Answer, 'headers'>, cap: number, now = Date.now()): number {
  const raw = answer.headers['retry-after'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined) return Math.min(1000, cap);
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - now;
  return Math.max(0, Math.min(Number.isFinite(ms) ? ms : 1000, cap));
}
