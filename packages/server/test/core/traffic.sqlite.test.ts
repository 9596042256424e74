// Fault injection (FAULTS / --faults) and rate limits (RATE_LIMIT) of the reference server, and
// the client against them: seeded faults repeat exactly, every injected answer says so (x-fault),
// the client's retries recover from them within their budget, and a 429 from the rate limit
// carries Retry-After and the three X-RateLimit-* headers, which the client reads.
import { Writable } from 'node:stream';
import { createClient, readRateLimit } from '@cloudapi/client';
import { formatReport, runContract } from '@cloudapi/contract';
import type { RetryEvent } from '@cloudapi/client';
import { afterAll, describe, expect, it } from 'vitest';
import { kitDocument } from '../harness/area-contracts.js';
import { spawnServer, startTestServer, tempDir, TOKENS, writeTokensFile } from '../harness/harness.js';
import type { TestServer } from '../harness/harness.js';

/** What these tests read of a contract kit run's result. */
interface KitResult {
  operations: { operationId: string; requests: { url: string; label: string; checks: { name: string; outcome: string; reason: string; injected?: string }[] }[] }[];
}

const started: TestServer[] = [];
afterAll(() => Promise.all(started.map((s) => s.close())));

async function serve(options: { faults?: string; rateLimit?: string }) {
  const lines: any[] = [];
  const logStream = new Writable({ write(chunk, _encoding, done) { lines.push(JSON.parse(String(chunk))); done(); } });
  const server = await startTestServer({ name: 'traffic', logLevel: 'warn', logStream, ...options });
  started.push(server);
  return { server, lines };
}

/** The statuses (and x-fault headers) of `n` sequential GET /regions. */
async function statuses(server: TestServer, n: number) {
  const seen: string[] = [];
  for (let i = 0; i < n; i++) {
    const answer = await server.as('full').get('/regions');
    seen.push(`${answer.status}${answer.headers.get('x-fault') ? ` ${answer.headers.get('x-fault')}` : ''}`);
  }
  return seen;
}

describe('fault injection', () => {
  it('is seeded: the same FAULTS give the same faults, marked x-fault and logged; other operations are untouched', async () => {
    const faults = '429=0.3,503=0.3,seed=42,ops=listRegions';
    const a = await serve({ faults });
    const b = await serve({ faults });
    const first = await statuses(a.server, 24);
    expect(await statuses(b.server, 24)).toEqual(first);
    expect(first).toContain('429 429');
    expect(first).toContain('503 503');
    expect(first).toContain('200');
    expect(first.every((s) => /^(200|429 429|503 503)$/.test(s))).toBe(true);
    const logged = a.lines.filter((line) => /fault injected/.test(line.msg));
    expect(logged).toHaveLength(first.filter((s) => s !== '200').length);
    expect(logged[0]).toMatchObject({ operationId: 'listRegions' });
    // Another seed, another sequence.
    const c = await serve({ faults: '429=0.3,503=0.3,seed=43,ops=listRegions' });
    expect(await statuses(c.server, 24)).not.toEqual(first);
    // ops= leaves the other operations alone.
    for (let i = 0; i < 8; i++) expect((await a.server.as('full').get('/volumes')).headers.get('x-fault')).toBeNull();
  });

  it('answers an injected 429 with Retry-After and an ErrorResponse; X-Fault asks for one fault on one request', async () => {
    const { server } = await serve({ faults: 'seed=1' });
    const tooMany = await server.as('full').get('/regions', { headers: { 'x-fault': '429' } });
    expect(tooMany.status).toBe(429);
    expect(tooMany.headers.get('retry-after')).toBe('1');
    expect(tooMany.headers.get('x-fault')).toBe('429');
    expect(tooMany.body.errors[0].reason).toMatch(/injected/);
    expect((await server.as('full').get('/regions')).status).toBe(200);
    const slow = Date.now();
    const late = await server.as('full').get('/regions', { headers: { 'x-fault': 'latency=300' } });
    expect(Date.now() - slow).toBeGreaterThanOrEqual(290);
    expect(late.status).toBe(200);
    expect(late.headers.get('x-fault')).toBe('latency');
    const bad = await server.as('full').get('/regions', { headers: { 'x-fault': 'explode' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].reason).toMatch(/X-Fault: "explode" is not a fault/);
    await expect(server.as('full').get('/regions', { headers: { 'x-fault': 'drop' } })).rejects.toThrow();
  });

  it('adds jittered latency within its bounds', async () => {
    const { server } = await serve({ faults: 'latency=150~100,seed=3,ops=listRegions' });
    for (let i = 0; i < 4; i++) {
      const start = Date.now();
      const answer = await server.as('full').get('/regions');
      const took = Date.now() - start;
      expect(answer.headers.get('x-fault')).toBe('latency');
      expect(took).toBeGreaterThanOrEqual(45);
      expect(took).toBeLessThan(1_000);
    }
  });

  it('a contract kit run with seeded faults names which failures were injected', async () => {
    const { server } = await serve({ faults: '503=0.5,seed=2,ops=listRegions', rateLimit: '1000/60s' });
    const result: KitResult = await runContract({ baseUrl: server.baseUrl, token: TOKENS.full.token, only: ['Regions'], examples: 0, timeoutMs: 20_000, document: kitDocument() });
    const failed = result.operations.flatMap((op) => op.requests.flatMap((r) => r.checks.filter((c) => c.outcome === 'fail').map((c) => ({ op: op.operationId, url: r.url, label: r.label, ...c }))));
    expect(failed.length).toBeGreaterThan(0);
    // Every failure is one the server injected into GET /regions (listRegions, also asked by
    // getRegion's set-up for an id), and is named so.
    for (const check of failed) {
      expect(new URL(check.url).pathname).toBe('/v4/regions');
      expect(check.injected).toBe('503');
      expect(check.reason).toMatch(/^\[injected fault: 503\] /);
    }
    expect(formatReport(result)).toMatch(/Injected faults: \d+ failed checks? came from answers the target marked x-fault[^\n]*\n  - x-fault: 503 on listRegions/);
    // With RATE_LIMIT set, every answer's X-RateLimit-* headers passed the kit's shape check.
    const shapes = result.operations.flatMap((op) => op.requests.flatMap((r) => r.checks)).filter((c) => c.name === 'X-RateLimit headers well-formed');
    expect(shapes.length).toBeGreaterThan(0);
    expect(shapes.filter((c) => c.outcome !== 'pass')).toEqual([]);
  }, 120_000);

  it('refuses a bad FAULTS setting at start-up, naming the item and the rule', async () => {
    await expect(startTestServer({ name: 'traffic', faults: '429=2' })).rejects.toThrow(/FAULTS: 429=2: the share must be a number from 0 to 1/);
    await expect(startTestServer({ name: 'traffic', faults: 'ops=noSuchOperation' })).rejects.toThrow(/noSuchOperation is not an operationId/);
    await expect(startTestServer({ name: 'traffic', rateLimit: '10 per minute' })).rejects.toThrow(/RATE_LIMIT must be <requests>\/<seconds>s/);
  });

  it('the client\'s retries recover from seeded 429, 503 and cut connections within their budget', async () => {
    const { server } = await serve({ faults: '429=0.2,503=0.2,drop=0.1,latency=5~5,seed=7,ops=listRegions|getVolume' });
    const events: RetryEvent[] = [];
    const client = createClient({
      baseUrl: server.baseUrl, token: TOKENS.full.token,
      // Retry-After of an injected 429 is 1 s: the budget allows a few of them.
      retry: { retries: 6, baseDelayMs: 10, maxDelayMs: 50, maxRetryDelayMs: 8_000, onRetry: (event) => events.push(event) },
    });
    for (let i = 0; i < 12; i++) {
      const { data, error } = await client.GET('/regions');
      expect(error, `call ${i}`).toBeUndefined();
      expect(data!.data.length).toBeGreaterThan(0);
    }
    const causes = new Set(events.map((e) => e.status ?? 'network'));
    expect(causes).toEqual(new Set([429, 503, 'network']));
    for (const event of events) {
      expect(event.retriesLeft).toBeGreaterThanOrEqual(0);
      expect(event.waitBudgetMs).toBeGreaterThanOrEqual(0);
    }
  }, 120_000);
});

describe('rate limits', () => {
  it('answer 429 with the four headers over the limit, per token, and send X-RateLimit-* on successes', async () => {
    const { server } = await serve({ rateLimit: '3/60s' });
    const client = createClient({ baseUrl: server.baseUrl, token: TOKENS.full.token, retry: false });
    const remaining: number[] = [];
    for (let i = 0; i < 3; i++) {
      const { data, response } = await client.GET('/volumes');
      expect(data).toBeDefined();
      const limit = readRateLimit(response)!;
      expect(limit.limit).toBe(3);
      expect(limit.resetAt).toBeGreaterThan(Date.now() / 1000);
      expect(limit.resetAt).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);
      remaining.push(limit.remaining);
    }
    expect(remaining).toEqual([2, 1, 0]);
    const { error } = await client.GET('/volumes');
    expect(error?.status).toBe(429);
    const headers = error!.response.headers;
    expect(headers.get('retry-after')).toMatch(/^\d+$/);
    expect(Number(headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(headers.get('x-ratelimit-limit')).toBe('3');
    expect(headers.get('x-ratelimit-remaining')).toBe('0');
    expect(headers.get('x-ratelimit-reset')).toMatch(/^\d{10}$/);
    expect(error!.rateLimit).toMatchObject({ limit: 3, remaining: 0 });
    expect(error!.retryAfterMs).toBe(Number(headers.get('retry-after')) * 1000);
    expect(error!.errors[0]!.reason).toMatch(/limit is 3 per 60 s/);
    // Another token has a budget of its own.
    expect((await server.as('readOnly').get('/volumes')).status).toBe(200);
  });

  it('count public operations per client address', async () => {
    const { server } = await serve({ rateLimit: '2/60s' });
    expect((await server.as(null).get('/regions')).status).toBe(200);
    expect((await server.as('full').get('/regions')).status).toBe(200);
    const third = await server.as('readOnly').get('/regions');
    expect(third.status).toBe(429);
    expect(third.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('count failed authentication per client address: made-up tokens reach the limit; a known token keeps its own window', async () => {
    const { server } = await serve({ rateLimit: '5/60s' });
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await server.as({ token: `made-up-${i}` }).get('/volumes')).status);
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(55).fill(429)]);
    expect((await server.as('full').get('/volumes')).status).toBe(200);
    // A request without a token is the address's too.
    expect((await server.as(null).get('/volumes')).status).toBe(429);
  });

  it('cloudapi-server takes --faults and RATE_LIMIT and says so on start-up', async () => {
    const dir = tempDir('traffic-cli');
    const child = spawnServer({ RATE_LIMIT: '5/10s', DATA_DIR: dir, TOKENS_FILE: writeTokensFile(dir) }, ['--faults', '503=1,seed=9,ops=listRegions']);
    try {
      const baseUrl = await child.ready;
      await child.waitFor(/rate limit: 5\/10s/);
      expect(child.output()).toMatch(/faults: 503 1, seed 9, ops listRegions/);
      const answer = await fetch(`${baseUrl}/regions`);
      expect(answer.status).toBe(503);
      expect(answer.headers.get('x-fault')).toBe('503');
    } finally {
      child.child.kill('SIGTERM');
      await child.exited;
    }
  });
});
