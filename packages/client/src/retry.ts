// Sending one request with a timeout per attempt, retries with exponential backoff and full
// jitter, `Retry-After`, and the caller's AbortSignal. What is retried (README "Retries"):
//
// - 429 for every method: the server did not process the request. `Retry-After` is honoured.
// - 5xx and network failures for idempotent methods only (GET, HEAD, OPTIONS, PUT, DELETE):
//   a POST that failed may still have happened.
// - Never: timeouts, aborts, any other status, a body that cannot be sent twice (a stream).

export interface RetryOptions {
  /** Retries after the first attempt; 0 turns retries off. Default 2. */
  retries?: number;
  /** Base of the exponential backoff: retry n waits a random time up to `baseDelayMs × 2^n`. Default 250. */
  baseDelayMs?: number;
  /** Cap of one backoff wait. Default 8000. */
  maxDelayMs?: number;
  /** Longest `Retry-After` the client waits for; a longer one returns the 429 at once. Default 60000. */
  maxRetryAfterMs?: number;
  /** Called before each wait, e.g. to log retries. */
  onRetry?: (event: RetryEvent) => void;
  /** Source of jitter in [0, 1). Default `Math.random`. */
  random?: () => number;
}

export interface RetryEvent {
  /** The retry about to be made: 1 for the first retry. */
  attempt: number;
  /** How long the client waits before it. */
  delayMs: number;
  method: string;
  url: string;
  /** The status that caused the retry, absent after a network failure. */
  status?: number;
  /** The network failure that caused the retry. */
  error?: unknown;
}

type ResolvedRetry = Required<Omit<RetryOptions, 'onRetry'>> & Pick<RetryOptions, 'onRetry'>;

export const RETRY_DEFAULTS: Readonly<ResolvedRetry> = Object.freeze({
  retries: 2,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  random: Math.random,
});

export function resolveRetry(options: RetryOptions | false | undefined): ResolvedRetry {
  if (options === false) return { ...RETRY_DEFAULTS, retries: 0 };
  return { ...RETRY_DEFAULTS, ...options };
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);

export function isIdempotent(method: string): boolean {
  return IDEMPOTENT.has(method.toUpperCase());
}

/**
 * `Retry-After` in milliseconds: delay-seconds (decimals tolerated) or an HTTP date; undefined
 * when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The wait before retry number `attempt + 1`: full jitter over an exponentially growing ceiling. */
export function backoffDelay(attempt: number, options: Pick<ResolvedRetry, 'baseDelayMs' | 'maxDelayMs' | 'random'>): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
  return Math.floor(options.random() * ceiling);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface AttemptTimer {
  /** Starts the timeout of an attempt, replacing the previous attempt's. */
  start(): void;
  /** Clears it. */
  stop(): void;
}

export interface SendOptions {
  method: string;
  url: string;
  /** The caller's signal: aborting it rejects with its reason, during an attempt or a wait. */
  signal?: AbortSignal | null;
  retry: ResolvedRetry;
  /** False when the body cannot be sent twice: the first response is returned as it is. */
  replayable: boolean;
  /**
   * The timeout of each attempt. It is stopped before a wait, and left running when a response is
   * returned, so that it also covers reading the body; the caller stops it once that is done.
   */
  timer?: AttemptTimer;
}

const isAbort = (error: unknown) => {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
};

/**
 * Calls `send` (one attempt; `final` when no retry can follow it) until a response that is not
 * retried, or the retries run out. Rejects with the caller's abort reason, the timeout's
 * `TimeoutError`, or the last network failure.
 */
export async function sendWithRetries(send: (final: boolean) => Promise<Response>, options: SendOptions): Promise<Response> {
  const { method, url, retry, replayable, timer } = options;
  const signal = options.signal ?? undefined;
  const idempotent = isIdempotent(method);
  for (let attempt = 0; ; attempt++) {
    signal?.throwIfAborted();
    const canRetry = replayable && attempt < retry.retries;
    timer?.start();
    let response: Response;
    try {
      response = await send(!canRetry);
    } catch (error) {
      timer?.stop();
      if (signal?.aborted) throw signal.reason;
      if (isAbort(error) || !idempotent || !canRetry) throw error;
      const delayMs = backoffDelay(attempt, retry);
      retry.onRetry?.({ attempt: attempt + 1, delayMs, method, url, error });
      await sleep(delayMs, signal);
      continue;
    }
    const retryable = response.status === 429 || (response.status >= 500 && idempotent);
    if (!retryable || !canRetry) return response;
    let delayMs = backoffDelay(attempt, retry);
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
    if (retryAfter !== undefined) {
      if (retryAfter > retry.maxRetryAfterMs) return response;
      delayMs = retryAfter;
    }
    timer?.stop();
    await response.body?.cancel().catch(() => undefined);
    retry.onRetry?.({ attempt: attempt + 1, delayMs, method, url, status: response.status });
    await sleep(delayMs, signal);
  }
}
