// Rendered list pages, answered again while nothing they were made from has changed: a page of
// 100 volumes costs the server about 0.8 ms of CPU to read, render and write, where sending the
// same 25 KB costs bare node:http about 30 µs. An entry is the answer's bytes, kept under a key of
// everything in the request the answer depends on (pageKey: the operation, the URL with its path
// and query, the X-Filter text and the caller's token, since what a caller may see can differ),
// and it holds
//   - while the store's data version (version.ts) is the one read before the page was rendered:
//     any commit, by this process or another one on the same database, drops every entry;
//   - while the clock stays in the window in which every state on the page is what was shown: a
//     row `creating` until its transition_at shows `active` from then on (settle() in clock.ts).
//     A handler that reads the clock is kept only when the page tells when its rows' states
//     change (STATE_TIMES, put on by paginate()) and the operation says that its answer depends
//     on the clock through those states alone (`cachedPages` in area.ts).
// Entries are bounded in number and in bytes, the least recently used going first. Headers that
// vary per request (the request id, rate limits) are not part of an entry.
import type { Clock } from '../clock.js';
import type { VersionReader } from './version.js';

export interface PageCacheBounds {
  /** Answers kept at most. */
  entries: number;
  /** Bytes of answers and keys kept at most. */
  bytes: number;
}

export const DEFAULT_PAGE_CACHE_BOUNDS: PageCacheBounds = { entries: 1024, bytes: 32 * 1024 * 1024 };

/** On a page: the transition_at of each of its rows whose state moves on the clock. */
export const STATE_TIMES = Symbol('the times at which states of the page rows change');

/** The key of an answer: everything of the request it depends on. */
export function pageKey(operationId: string, url: string, filterText: string | undefined, tokenId: string | undefined): string {
  return `${operationId}\u0000${url}\u0000${filterText ?? ''}\u0000${tokenId ?? ''}`;
}

interface Entry {
  body: Uint8Array;
  /** The clock window in which the answer holds: [from, until). */
  from: number;
  until: number;
  size: number;
}

/** The clock a handler sees while its answer is rendered: it notes the times it read. */
class ClockProbe implements Clock {
  first = Number.NaN;
  last = Number.NaN;
  constructor(private readonly clock: Clock) {}
  now(): number {
    const now = this.clock.now();
    if (Number.isNaN(this.first)) this.first = now;
    this.last = now;
    return now;
  }
  get transitionMs(): number {
    return this.clock.transitionMs;
  }
}

/** The clock window in which `result`, rendered under `probe`, holds; undefined when it cannot be told. */
function windowOf(result: unknown, probe: ClockProbe): { from: number; until: number } | undefined {
  if (Number.isNaN(probe.first)) return { from: -Infinity, until: Infinity };
  const times = (result as { [STATE_TIMES]?: readonly number[] } | null)?.[STATE_TIMES];
  if (!times) return undefined;
  let until = Infinity;
  for (const time of times) if (time > probe.first && time < until) until = time;
  return until > probe.last ? { from: probe.last, until } : undefined;
}

const encoder = new TextEncoder();

export class PageCache {
  readonly bounds: PageCacheBounds;
  private readonly entries = new Map<string, Entry>();
  /** The data version of every entry kept. */
  private version: string | undefined;
  private bytes = 0;
  private hits = 0;
  private misses = 0;

  constructor(private readonly readVersion: VersionReader, bounds: Partial<PageCacheBounds> = {}) {
    this.bounds = { ...DEFAULT_PAGE_CACHE_BOUNDS, ...bounds };
  }

  /**
   * The answer for `key`: the bytes kept for it when they still hold, else `render` run with a
   * clock that notes its reads, written by `serialize` (and kept when it can be).
   */
  async answer(key: string, clock: Clock, render: (clock: Clock) => Promise<unknown>, serialize: (result: unknown) => string): Promise<Uint8Array> {
    // Read before anything of the answer is: see version.ts.
    const pending = this.readVersion();
    const version = typeof pending === 'string' ? pending : await pending;
    if (version !== this.version) {
      this.clear();
      this.version = version;
    }
    const now = clock.now();
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      if (now >= entry.from && now < entry.until) {
        this.entries.set(key, entry);
        this.hits++;
        return entry.body;
      }
      this.bytes -= entry.size;
    }
    this.misses++;
    const probe = new ClockProbe(clock);
    const result = await render(probe);
    const body = encoder.encode(serialize(result));
    const window = windowOf(result, probe);
    // A commit seen by another request meanwhile emptied the cache: this answer is older than that.
    if (window && this.version === version) this.keep(key, { body, ...window, size: body.byteLength + key.length * 2 });
    return body;
  }

  private keep(key: string, entry: Entry): void {
    if (entry.size > this.bounds.bytes || this.bounds.entries < 1) return;
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.bytes -= previous.size;
    }
    while (this.entries.size >= this.bounds.entries || this.bytes + entry.size > this.bounds.bytes) {
      const [oldest, dropped] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      this.bytes -= dropped.size;
    }
    this.entries.set(key, entry);
    this.bytes += entry.size;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  /** What is kept now, and how requests were answered so far. */
  stats(): { entries: number; bytes: number; hits: number; misses: number } {
    return { entries: this.entries.size, bytes: this.bytes, hits: this.hits, misses: this.misses };
  }
}
