// Sending one request: the redirects redirects.ts allows, a timeout per request (armed by the
// caller), retries with exponential backoff and full jitter, `Retry-After`, and the caller's
// AbortSignal. What is retried (README "Retries"):
//
// - 429 for every method: the server did not process the request. `Retry-After` is honoured.
// - 5xx and network failures for idempotent methods only (GET, PUT, DELETE): a POST that
//   failed may still have happened. A body cut short is a network failure too (while a retry
//   can follow, the body of an idempotent request is read before the answer is returned).
// - Never: timeouts, aborts, any other status, a body that cannot be sent twice (a stream).
//
// Both the number of retries (MAX_RETRIES) and the time a call spends waiting between attempts
// (maxRetryDelayMs) are bounded, whatever the options or the server's `Retry-After` say.
import { Planned } from './planned.js';
import { followable, MAX_REDIRECTS } from './redirects.js';
import { readRateLimit } from './rate-limit.js';
import type { RateLimit } from './rate-limit.js';

export interface RetryOptions {
  /** Retries after the first attempt; 0 turns retries off. Default 2, at most `MAX_RETRIES` (10). */
  retries?: number;
  /** Base of the exponential backoff: retry n waits a random time up to `baseDelayMs × 2^n`. Default 250. */
  baseDelayMs?: number;
  /** Cap of one backoff wait. Default 8000. */
  maxDelayMs?: number;
  /**
   * Longest total time one call waits between its attempts (backoff and `Retry-After`); a wait
   * that would go past it is not made, and the last answer is returned. Default 60000.
   */
  maxRetryDelayMs?: number;
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
  /** Retries left after this one. */
  retriesLeft: number;
  /** Of `maxRetryDelayMs`, what is left to wait after this wait. */
  waitBudgetMs: number;
  /** The server's rate limit, when the answer carried the X-RateLimit-* headers. */
  rateLimit?: RateLimit;
}

type ResolvedRetry = Required<Omit<RetryOptions, 'onRetry'>> & Pick<RetryOptions, 'onRetry'>;

/** The most retries a call makes, whatever `retries` says. */
export const MAX_RETRIES = 10;

export const RETRY_DEFAULTS: Readonly<ResolvedRetry> = {
  retries: 2,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryDelayMs: 60_000,
  random: Math.random,
};

/** The options with their defaults; `false` makes no retry. */
export const resolveRetry = (options: RetryOptions | false | undefined): ResolvedRetry => ({ ...RETRY_DEFAULTS, ...(options === false ? { retries: 0 } : options) });

// RFC 9110 §5.6.7: IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), and the obsolete RFC 850
// (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`, in GMT) forms. Only
// these reach Date.parse, which would also read "1, 2" or "-5" as dates (names are matched in any
// case; Date.parse refuses unknown month names).
const HTTP_DATE = /^[a-z]{3}(?:, \d\d [a-z]{3} \d{4} [\d:]{8} GMT|[a-z]{3,6}, \d\d-[a-z]{3}-\d\d [\d:]{8} GMT| [a-z]{3} [ \d]\d [\d:]{8} \d{4})$/i;

/**
 * `Retry-After` in milliseconds: delay-seconds (digits only) or an HTTP-date, as RFC 9110 defines
 * them; undefined for anything else (negative or fractional numbers, lists, other date formats),
 * so that the client backs off instead.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  const text = value ?? '';
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = HTTP_DATE.test(text) ? Date.parse(text.endsWith('GMT') ? text : `${text} GMT`) : NaN;
  // (NaN: not a date Date.parse knows.)
  return date >= 0 ? Math.max(0, date - now) : undefined;
}

/** The wait before retry number `attempt + 1`: full jitter over an exponentially growing ceiling. */
export function backoffDelay(attempt: number, options: Pick<ResolvedRetry, 'baseDelayMs' | 'maxDelayMs' | 'random'>): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
  return Math.floor(options.random() * ceiling);
}

/** Frees the connection of a response whose body is not read. */
export const discard = (response: Response | undefined) => response?.body?.cancel().catch(() => undefined);

/** The response with its body read into memory (a body cut short rejects with a TypeError). */
async function buffered(response: Response): Promise<Response> {
  // (Statuses that may not have a body, and opaque answers, are returned as they are.)
  if (!response.body || response.status < 200 || [204, 205, 304].includes(response.status)) return response;
  const copy = new Response(await response.arrayBuffer(), response);
  Object.defineProperty(copy, 'url', { value: response.url });
  return copy;
}

/**
 * The TypeError a call rejects with when no complete answer arrived: what happened, to which
 * request, and the likely reason. `cause` is the failure's own cause where fetch gives one (Node:
 * the system error, with its `code`), else fetch's TypeError.
 */
function unanswered(request: { method: string; url: string }, error: TypeError, cut: Response | undefined, blocked: boolean): TypeError {
  const reason = (error.cause as { code?: string } | undefined)?.code ?? error.message;
  return new TypeError(`${request.method} ${request.url}: ${
    blocked ? `blocked by the browser: the server answers, but not to ${pageOrigin()} (CORS)`
      : cut ? `answer cut short (${reason})`
        : `no answer (${reason}): is the server running?${pageOrigin() && ' Or CORS blocked it.'}`}`, { cause: error.cause ?? error });
}

/** The origin of the page (or worker) the client runs in; "" outside a browser. */
const pageOrigin = () => (typeof location == 'object' ? location.origin : '');

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
const sleep = (ms: number, signal: AbortSignal | null | undefined) => new Promise<void>((resolve, reject) => {
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener('abort', () => {
    clearTimeout(timer);
    reject(signal.reason);
  }, { once: true });
});

/**
 * Sends `request` with `fetchOne`, following the redirects `followable` allows, and retrying
 * until a response that is not retried, the retries run out, or the next wait would pass
 * `maxRetryDelayMs`. `fetchOne` is told when no retry can follow (`final`): until then it must
 * keep the body for the next attempt. Rejects with the caller's abort reason, the timeout's
 * `TimeoutError`, or the last network failure.
 *
 * - `signal`: the caller's; aborting it rejects with its reason, during a request or a wait.
 * - `arm`: starts (true) or stops (false) the timeout of a request. It is stopped before a wait,
 *   and left running when a response is returned, so that it also covers reading the body; the
 *   caller stops it once that is done.
 * - `once`: the body cannot be sent twice (a stream), so the first response is returned as it is.
 */
export async function sendWithRetries<R extends Request | Planned>(
  request: R,
  fetchOne: (request: R, final: boolean) => Promise<Response>,
  retry: ResolvedRetry,
  signal?: AbortSignal | null,
  arm?: (on: boolean) => void,
  once?: boolean,
): Promise<Response> {
  // Only a POST may have taken effect when it failed; the client sends no PATCH.
  const idempotent = request.method !== 'POST';
  // NaN and negative counts make no retry (the loop compares with `<`).
  const retries = once ? 0 : Math.min(retry.retries, MAX_RETRIES);
  let waited = 0;
  let hops = 0;
  for (let attempt = 0; ;) {
    signal?.throwIfAborted();
    const final = !(attempt < retries);
    arm?.(true);
    let response: Response | undefined;
    let failure: unknown;
    try {
      response = await fetchOne(request, final);
      const target = hops < MAX_REDIRECTS && followable(request, response);
      if (target) {
        hops += 1;
        await discard(response);
        request = (request instanceof Request ? new Request(target, request) : new Planned(target, request)) as R;
        continue;
      }
      if (final || !(response.status === 429 || (response.status >= 500 && idempotent))) {
        // While a retry can follow, an idempotent request's body is read here, so that a
        // connection cut mid-answer is retried like any other network failure.
        return final || !idempotent ? response : await buffered(response);
      }
    } catch (error) {
      signal?.throwIfAborted();
      // fetch rejects with a TypeError for a network failure; timeouts are not retried.
      if (!(error instanceof TypeError)) throw error;
      // A browser gives the same TypeError for a request it blocked (CORS) as for a server that is
      // not there. A no-cors HEAD, whose answer the page cannot read but gets, tells them apart:
      // if the server answers it, the failure was the browser's refusal, and a retry would fail too.
      const blocked = !response && !!pageOrigin() && await fetchOne(new Planned(request.url, { method: 'HEAD', mode: 'no-cors' }) as R, true).then(discard, () => false) !== false;
      failure = unanswered(request, error, response, blocked);
      if (blocked || !idempotent || final) throw failure;
      response = undefined; // (a body cut short: the answer is lost)
    }
    // A 429 without a usable Retry-After but with an exhausted X-RateLimit budget waits for its reset.
    const rateLimit = response ? readRateLimit(response) : undefined;
    const untilReset = response?.status === 429 && rateLimit?.remaining === 0 ? rateLimit.resetInMs : undefined;
    const delayMs = parseRetryAfter(response?.headers.get('retry-after')) ?? untilReset ?? backoffDelay(attempt, retry);
    if ((waited += delayMs) > retry.maxRetryDelayMs) {
      if (response) return response;
      throw failure;
    }
    arm?.(false);
    await discard(response);
    attempt += 1;
    retry.onRetry?.({
      attempt, delayMs, method: request.method, url: request.url, status: response?.status, error: failure,
      retriesLeft: retries - attempt, waitBudgetMs: retry.maxRetryDelayMs - waited, ...(rateLimit ? { rateLimit } : {}),
    });
    await sleep(delayMs, signal);
  }
}
