// The page cache's own rules (src/core/store/page-cache.ts), with a data version and a clock set
// by hand: its bounds in entries and bytes (the least recently used goes first), a new data
// version dropping everything, the clock window of a page whose rows change state, and what is
// never kept. The cache on a real server, on both engines: test/core/page-cache.test.ts.
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/core/clock.js';
import { PageCache, STATE_TIMES } from '../../src/core/store/page-cache.js';

function setting(bounds?: ConstructorParameters<typeof PageCache>[1]) {
  const state = { version: 'v1', now: 1_000, renders: 0 };
  const clock: Clock = { now: () => state.now, transitionMs: 0 };
  const cache = new PageCache(() => state.version, bounds);
  /** The answer for `key`; a render makes `body` (and reads the clock when `times` is given). */
  const answer = async (key: string, body = `page ${key}`, times?: number[]) => new TextDecoder().decode(await cache.answer(key, clock, async (probe) => {
    state.renders++;
    if (!times) return { body };
    probe.now();
    return Object.defineProperty({ body }, STATE_TIMES, { value: times });
  }, (result) => (result as { body: string }).body));
  return { state, cache, answer };
}

describe('page cache', () => {
  it('answers a key again from what it kept, until the data version changes', async () => {
    const { state, cache, answer } = setting();
    expect(await answer('a')).toBe('page a');
    expect(await answer('a', 'changed')).toBe('page a');
    expect(state.renders).toBe(1);
    state.version = 'v2';
    expect(await answer('a', 'changed')).toBe('changed');
    expect(state.renders).toBe(2);
    expect(cache.stats()).toMatchObject({ entries: 1, hits: 1, misses: 2 });
  });

  it('keeps at most `entries` answers, dropping the least recently used', async () => {
    const { state, cache, answer } = setting({ entries: 3 });
    for (const key of ['a', 'b', 'c']) await answer(key);
    await answer('a'); // used again: b is now the oldest
    await answer('d');
    expect(cache.stats().entries).toBe(3);
    const renders = state.renders;
    await answer('a');
    await answer('c');
    await answer('d');
    expect(state.renders).toBe(renders);
    await answer('b');
    expect(state.renders).toBe(renders + 1);
  });

  it('keeps at most `bytes` of answers and keys, and never an answer larger than that', async () => {
    const { state, cache, answer } = setting({ bytes: 1000 });
    for (const key of ['a', 'b', 'c', 'd', 'e']) await answer(key, key.repeat(300));
    expect(cache.stats().entries).toBe(3);
    expect(cache.stats().bytes).toBeLessThanOrEqual(1000);
    await answer('huge', 'x'.repeat(2000));
    const renders = state.renders;
    expect(await answer('huge', 'y'.repeat(2000))).toBe('y'.repeat(2000));
    expect(state.renders).toBe(renders + 1);
    expect(cache.stats().bytes).toBeLessThanOrEqual(1000);
  });

  it('a page whose rows change state on the clock holds until the first of those times', async () => {
    const { state, answer } = setting();
    expect(await answer('p', 'creating', [500, 5_000, 9_000])).toBe('creating');
    state.now = 4_999;
    expect(await answer('p', 'active')).toBe('creating');
    state.now = 5_000;
    expect(await answer('p', 'active', [500, 5_000, 9_000])).toBe('active');
    state.now = 8_999;
    expect(await answer('p', 'later')).toBe('active');
    state.now = 900; // a clock set back: before the page was made
    expect(await answer('p', 'earlier', [500, 5_000, 9_000])).toBe('earlier');
  });

  it('does not keep an answer that read the clock without saying when its states change', async () => {
    const { state, cache, answer } = setting();
    await cache.answer('q', { now: () => state.now, transitionMs: 0 }, async (probe) => ({ body: String(probe.now()) }), (r) => (r as { body: string }).body);
    expect(cache.stats().entries).toBe(0);
    await answer('r');
    expect(cache.stats().entries).toBe(1);
  });

  it('does not keep an answer rendered while a newer data version was seen', async () => {
    const { state, cache } = setting();
    const clock: Clock = { now: () => state.now, transitionMs: 0 };
    let release!: () => void;
    const slow = cache.answer('slow', clock, () => new Promise((resolve) => { release = () => resolve('old'); }), String);
    await Promise.resolve();
    state.version = 'v2';
    await cache.answer('other', clock, async () => 'new', String);
    release();
    await slow;
    expect(cache.stats().entries).toBe(1);
    expect(new TextDecoder().decode(await cache.answer('slow', clock, async () => 'fresh', String))).toBe('fresh');
  });
});
