// Retries, timeouts and aborts against a local server on 127.0.0.1 that answers 429, 503, slow
// or broken responses on cue. Backoff delays are kept small (baseDelayMs) so the suite is fast;
// one test waits a real one-second Retry-After.
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, backoffDelay, createClient, parseRetryAfter, readRateLimit, RETRY_DEFAULTS, type RetryEvent, type RetryOptions } from '../src/index.js';
import { json, startServer, type Handler, type LocalServer } from './helpers.js';

const volume = { id: 1, label: 'data', status: 'active', size: 20, region: 'us-east', compute_id: null, compute_label: null, filesystem_path: '/dev/x', created: '2018-01-01T00:01:01', updated: '2018-01-01T00:01:01', tags: [] };
const tooMany = { errors: [{ reason: 'Too many requests' }] };

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server answering each request with the next of `answers` (the last one repeats), and a client for it. */
async function scripted(answers: Handler[], options: { retry?: RetryOptions | false; timeoutMs?: number } = {}) {
  server = await startServer((request, response, index) => answers[Math.min(index, answers.length - 1)]!(request, response, index));
  const events: RetryEvent[] = [];
  const retry = options.retry === false ? false : { baseDelayMs: 5, onRetry: (event: RetryEvent) => events.push(event), ...options.retry };
  const client = createClient({ baseUrl: `${server.url}/v4`, token: 't', retry, timeoutMs: options.timeoutMs });
  return { client, events, requests: server.requests, url: server.url };
}

const ok: Handler = (_, response) => json(response, 200, volume);
const status = (code: number, headers: Record<string, string> = {}): Handler => (_, response) => json(response, code, code === 429 ? tooMany : { errors: [{ reason: 'Service unavailable' }] }, headers);
const getVolume = (client: ReturnType<typeof createClient>, init: { signal?: AbortSignal } = {}) => client.GET('/volumes/{volumeId}', { params: { path: { volumeId: 1 } }, ...init });

describe('429', () => {
  it('waits as long as Retry-After says, then retries', async () => {
    const { client, events, requests } = await scripted([status(429, { 'retry-after': '1' }), ok]);
    const { data, error } = await getVolume(client);
    expect(error).toBeUndefined();
    expect(data).toEqual(volume);
    expect(requests).toHaveLength(2);
    expect(events).toEqual([expect.objectContaining({ attempt: 1, delayMs: 1000, status: 429, method: 'GET' })]);
    expect(requests[1]!.at - requests[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('retries a POST too: the server did not process it', async () => {
    const { client, requests } = await scripted([status(429, { 'retry-after': '0' }), ok]);
    const { data } = await client.POST('/volumes', { body: { label: 'data', region: 'us-east' } });
    expect(data).toEqual(volume);
    expect(requests.map((r) => r.method)).toEqual(['POST', 'POST']);
    expect(requests.map((r) => JSON.parse(r.body.toString()))).toEqual([{ label: 'data', region: 'us-east' }, { label: 'data', region: 'us-east' }]);
    expect(requests[1]!.headers.authorization).toBe('Bearer t');
  });

  it('gives up on a Retry-After longer than maxRetryDelayMs, returning the 429 with retryAfterMs', async () => {
    const { client, requests } = await scripted([status(429, { 'retry-after': '120' }), ok], { retry: { maxRetryDelayMs: 60_000 } });
    const { error } = await getVolume(client);
    expect(requests).toHaveLength(1);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 120_000, errors: [{ reason: 'Too many requests' }] });
  });
});

describe('5xx', () => {
  it('retries a GET after a 503', async () => {
    const { client, events, requests } = await scripted([status(503), ok]);
    const { data } = await getVolume(client);
    expect(data).toEqual(volume);
    expect(requests).toHaveLength(2);
    expect(events[0]).toMatchObject({ attempt: 1, status: 503 });
  });

  it('retries PUT and DELETE, which are idempotent', async () => {
    const { client, requests } = await scripted([status(502), ok, status(500), ok]);
    await client.PUT('/volumes/{volumeId}', { params: { path: { volumeId: 1 } }, body: { label: 'renamed' } });
    await client.DELETE('/volumes/{volumeId}', { params: { path: { volumeId: 1 } } });
    expect(requests.map((r) => r.method)).toEqual(['PUT', 'PUT', 'DELETE', 'DELETE']);
    expect(JSON.parse(requests[1]!.body.toString())).toEqual({ label: 'renamed' });
  });

  it('does not retry a POST after a 503', async () => {
    const { client, events, requests } = await scripted([status(503), ok]);
    const { data, error } = await client.POST('/volumes', { body: { label: 'data', region: 'us-east' } });
    expect(data).toBeUndefined();
    expect(requests).toHaveLength(1);
    expect(events).toEqual([]);
    expect(error).toMatchObject({ status: 503, errors: [{ reason: 'Service unavailable' }] });
  });

  it('stops after `retries` retries with the last answer, backing off exponentially with jitter', async () => {
    const { client, events, requests } = await scripted([status(503)], { retry: { retries: 3, baseDelayMs: 8, random: () => 0.99 } });
    const { error } = await getVolume(client);
    expect(requests).toHaveLength(4);
    expect(error?.status).toBe(503);
    expect(events.map((e) => e.delayMs)).toEqual([7, 15, 31]);
  });

  it('makes an ApiError of an error body outside the contract', async () => {
    const { client } = await scripted([(_, response) => { response.writeHead(502, { 'content-type': 'text/html' }).end('Bad gateway'); }], { retry: false });
    const { error } = await getVolume(client);
    expect(error).toMatchObject({ status: 502, body: 'Bad gateway', errors: [{ reason: 'Bad gateway' }] });
  });

  it('sends once with retries off', async () => {
    const { client, requests } = await scripted([status(503), ok], { retry: false });
    expect((await getVolume(client)).error?.status).toBe(503);
    expect(requests).toHaveLength(1);
  });
});

describe('network failures', () => {
  const hangUp: Handler = (_, response) => { response.socket?.destroy(); };

  it('retries a GET whose connection broke', async () => {
    const { client, events, requests } = await scripted([hangUp, ok]);
    const { data } = await getVolume(client);
    expect(data).toEqual(volume);
    expect(requests).toHaveLength(2);
    expect(events[0]!.error).toBeInstanceOf(TypeError);
  });

  it('rejects a POST whose connection broke, without retrying', async () => {
    const { client, requests } = await scripted([hangUp, ok]);
    await expect(client.POST('/volumes', { body: { label: 'data', region: 'us-east' } })).rejects.toBeInstanceOf(TypeError);
    expect(requests).toHaveLength(1);
  });

  it('says which request got no answer and why, keeping the system error as the cause', async () => {
    const { url } = await scripted([ok]);
    await server!.close();
    server = undefined;
    const events: RetryEvent[] = [];
    const client = createClient({ baseUrl: `${url}/v4`, retry: { baseDelayMs: 1, onRetry: (event) => events.push(event) } });
    const failure = await getVolume(client).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).message).toBe(`GET ${url}/v4/volumes/1: no answer (ECONNREFUSED): is the server running?`);
    expect((failure as TypeError).cause).toMatchObject({ code: 'ECONNREFUSED' });
    expect(events.map((event) => event.attempt)).toEqual([1, 2]); // still retried: a server may be starting
  });
});

// What a browser does: fetch rejects with the same bare TypeError for a request it blocked (CORS)
// and for a server that is not there. The page's `location` and a fetch that refuses what a page
// may not read stand in for the browser here; examples/web-app shows the same in Chromium.
describe('a request the browser blocked', () => {
  const origin = 'http://localhost:4173';
  afterEach(() => {
    delete (globalThis as { location?: unknown }).location;
  });

  /** A browser's fetch for a page whose origin the server does not trust: only no-cors requests get through, opaque. */
  const browserFetch = (sent: string[]) => (input: string | Request, init?: RequestInit) => {
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    sent.push(`${method} ${init?.mode ?? 'cors'}`);
    return init?.mode === 'no-cors' ? fetch(input, init) : Promise.reject(new TypeError('Failed to fetch'));
  };

  it('is not retried when the server answers a no-cors probe, and the error says the browser blocked it', async () => {
    const { url, events } = await scripted([ok]);
    (globalThis as { location?: unknown }).location = { origin };
    const sent: string[] = [];
    const client = createClient({ baseUrl: `${url}/v4`, fetch: browserFetch(sent), retry: { baseDelayMs: 1, onRetry: (event) => events.push(event) } });
    const failure = await getVolume(client).catch((error: unknown) => error);
    expect((failure as TypeError).message).toBe(`GET ${url}/v4/volumes/1: blocked by the browser: the server answers, but not to ${origin} (CORS)`);
    expect(sent).toEqual(['GET cors', 'HEAD no-cors']);
    expect(events).toEqual([]);
    expect(server!.requests.map((r) => r.method)).toEqual(['HEAD']);
  });

  it('is retried, and said to be a missing server or CORS, when nothing answers the probe either', async () => {
    const { url } = await scripted([ok]);
    await server!.close();
    server = undefined;
    (globalThis as { location?: unknown }).location = { origin };
    const sent: string[] = [];
    const client = createClient({ baseUrl: `${url}/v4`, fetch: browserFetch(sent), retry: { baseDelayMs: 1 } });
    const failure = await getVolume(client).catch((error: unknown) => error);
    expect((failure as TypeError).message).toBe(`GET ${url}/v4/volumes/1: no answer (Failed to fetch): is the server running? Or CORS blocked it.`);
    expect(sent).toEqual(['GET cors', 'HEAD no-cors', 'GET cors', 'HEAD no-cors', 'GET cors', 'HEAD no-cors']);
  });
});

describe('timeouts and AbortSignal', () => {
  const slow = (ms: number): Handler => (_, response) => new Promise((resolve) => setTimeout(() => { json(response, 200, volume); resolve(); }, ms));

  it('rejects with a TimeoutError when an attempt takes longer than timeoutMs, and does not retry it', async () => {
    const { client, requests } = await scripted([slow(2_000)], { timeoutMs: 100 });
    const started = performance.now();
    await expect(getVolume(client)).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(requests).toHaveLength(1);
  });

  it('answers within timeoutMs normally', async () => {
    const { client } = await scripted([slow(20)], { timeoutMs: 2_000 });
    expect((await getVolume(client)).data).toEqual(volume);
  });

  it('rejects with the abort reason when the caller aborts a request in flight', async () => {
    const { client } = await scripted([slow(2_000)]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    await expect(getVolume(client, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it('stops waiting for a retry when the caller aborts', async () => {
    const { client, requests } = await scripted([status(503, { 'retry-after': '5' }), ok]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled by the test')), 100);
    const started = performance.now();
    await expect(getVolume(client, { signal: controller.signal })).rejects.toThrow('cancelled by the test');
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(requests).toHaveLength(1);
  });

  it('sends nothing with an already aborted signal', async () => {
    const { client, requests } = await scripted([ok]);
    await expect(getVolume(client, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(requests).toHaveLength(0);
  });
});

describe('backoffDelay and parseRetryAfter', () => {
  it('draws a full-jitter delay under an exponential ceiling, capped at maxDelayMs', () => {
    const options = { baseDelayMs: 100, maxDelayMs: 1_000 };
    expect([0, 1, 2, 3, 4, 5].map((attempt) => backoffDelay(attempt, { ...options, random: () => 0.999999 }))).toEqual([99, 199, 399, 799, 999, 999]);
    expect(backoffDelay(3, { ...options, random: () => 0 })).toBe(0);
    expect(backoffDelay(2, { ...options, random: () => 0.5 })).toBe(200);
    const drawn = Array.from({ length: 200 }, () => backoffDelay(2, { ...options, random: Math.random }));
    expect(Math.min(...drawn)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...drawn)).toBeLessThan(400);
    expect(new Set(drawn).size).toBeGreaterThan(10);
    expect(RETRY_DEFAULTS).toMatchObject({ retries: 2, baseDelayMs: 250, maxDelayMs: 8_000, maxRetryDelayMs: 60_000 });
  });

  it('reads delay-seconds and the three HTTP-date forms of RFC 9110, nothing else', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('30', now)).toBe(30_000);
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Wednesday, 01-Jan-25 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Wed Jan  1 00:00:10 2025', now)).toBe(10_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
    // Lenient forms that Date.parse would read, and numbers RFC 9110 does not allow: back off instead.
    for (const value of ['-5', '1, 2', '1.5', ' 0 ', '1e3', 'soon', '2025-01-01T00:00:10Z', '1 Jan 2025', 'Wed, 01 Jan 2025 00:00:10 UTC', 'Wed, 1 Jan 2025 00:00:10 GMT', 'Wed, 01 Foo 2025 00:00:10 GMT', '']) {
      expect(parseRetryAfter(value, now), value).toBeUndefined();
    }
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('rate-limit headers', () => {
  it('a 429 without Retry-After but with an exhausted X-RateLimit budget waits for the reset, and says what is left', async () => {
    const resetAt = Math.ceil(Date.now() / 1000) + 1;
    const limited = status(429, { 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(resetAt) });
    const { client, events, requests } = await scripted([limited, ok], { retry: { retries: 3, maxRetryDelayMs: 5_000 } });
    const { data } = await getVolume(client);
    expect(data).toEqual(volume);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ status: 429, retriesLeft: 2, rateLimit: { limit: 5, remaining: 0, resetAt } });
    expect(events[0]!.delayMs).toBeGreaterThan(0);
    expect(events[0]!.waitBudgetMs).toBe(5_000 - events[0]!.delayMs);
    expect(requests[1]!.at - requests[0]!.at).toBeGreaterThanOrEqual(events[0]!.delayMs - 20);
  });

  it('an ApiError and readRateLimit report the budget; malformed headers are no budget', async () => {
    const { client } = await scripted([status(429, { 'retry-after': '30', 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1767225600' })], { retry: false });
    const { error } = await getVolume(client);
    expect(error?.rateLimit).toMatchObject({ limit: 10, remaining: 0, resetAt: 1767225600 });
    expect(readRateLimit(new Response(null, { headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '-1', 'x-ratelimit-reset': '5' } }))).toBeUndefined();
    expect(readRateLimit(new Response(null, { headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '2000000000' } }), 1_999_999_000_000)).toEqual({ limit: 10, remaining: 3, resetAt: 2_000_000_000, resetInMs: 1_000_000 });
  });
});

describe('a body cut short', () => {
  const cut: Handler = (_, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
    response.write('{"id":1,');
    setTimeout(() => response.socket?.destroy(), 10);
  };

  it('is retried for a GET while retries remain', async () => {
    const { client, events, requests } = await scripted([cut, ok]);
    const { data } = await getVolume(client);
    expect(data).toEqual(volume);
    expect(requests).toHaveLength(2);
    expect(events).toEqual([expect.objectContaining({ attempt: 1, error: expect.any(TypeError) })]);
    expect(events[0]!.error).toMatchObject({ message: `GET ${server!.url}/v4/volumes/1: answer cut short (UND_ERR_SOCKET)` }); // (undici's code for a socket closed mid-answer)
  });

  it('rejects with the TypeError once the retries are spent', async () => {
    const spent = await scripted([cut], { retry: { retries: 1 } });
    await expect(getVolume(spent.client)).rejects.toThrow(TypeError);
    expect(spent.requests).toHaveLength(2);
  });
});
