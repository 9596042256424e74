// Traffic in the kit's checks: the rate-limit headers' shape when an answer carries them, and a
// run against a target with fault injection on (the real mock with FAULTS) that names which of
// its failures the target injected (answers marked x-fault).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '@cloudapi/mock';
import type { Answer } from '../src/transport/http.js';
import { formatReport, runContract, type ContractResult } from '../src/index.js';
import { rateLimitHeaderChecks } from '../src/checks/traffic-headers.js';
import { document, findings } from './support.js';

const answer = (status: number, headers: Record<string, string>): Answer => ({ status, headers, mediaType: 'application/json', text: '{}', ms: 1, bytes: 2 });
const outcomes = (checks: ReturnType<typeof rateLimitHeaderChecks>) => checks.map((c) => `${c.name}: ${c.outcome}${c.outcome === 'fail' ? ` ${c.reason}` : ''}`);

describe('rate-limit header checks', () => {
  it('pass well-formed headers and run none on an answer without them', () => {
    expect(rateLimitHeaderChecks(answer(200, {}), 'implementation')).toEqual([]);
    expect(outcomes(rateLimitHeaderChecks(answer(429, { 'retry-after': '12', 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1767225600' }), 'implementation')))
      .toEqual(['Retry-After well-formed: pass', 'X-RateLimit headers well-formed: pass']);
    expect(outcomes(rateLimitHeaderChecks(answer(503, { 'retry-after': 'Wed, 21 Oct 2026 07:28:00 GMT' }), 'implementation'))).toEqual(['Retry-After well-formed: pass']);
  });

  it.each([
    [{ 'retry-after': '-5' }, /Retry-After is "-5": it must be whole seconds or an HTTP date/],
    [{ 'x-ratelimit-limit': '10' }, /come together; this answer has only some of them/],
    [{ 'x-ratelimit-limit': '0', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1767225600' }, /X-RateLimit-Limit is "0": it must be an integer of at least 1/],
    [{ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '11', 'x-ratelimit-reset': '1767225600' }, /Remaining 11 is more than X-RateLimit-Limit 10/],
    [{ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '1767225600000' }, /X-RateLimit-Reset is "1767225600000": it must be seconds since the Unix epoch/],
    [{ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': 'many', 'x-ratelimit-reset': '1767225600' }, /Remaining is "many"/],
  ])('fail %j, saying why', (headers, reason) => {
    const failed = rateLimitHeaderChecks(answer(200, headers), 'implementation').filter((c) => c.outcome === 'fail');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.reason).toMatch(reason);
  });

  it('hold an implementation\'s 429 to Remaining 0, not a mock\'s examples', () => {
    const headers = { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '4', 'x-ratelimit-reset': '1767225600' };
    expect(rateLimitHeaderChecks(answer(429, headers), 'implementation')[0]!.reason).toMatch(/a 429 says X-RateLimit-Remaining 4, not 0/);
    expect(rateLimitHeaderChecks(answer(429, headers), 'mock')[0]!.outcome).toBe('pass');
  });
});

describe('a run against the mock with FAULTS', () => {
  let mock: Awaited<ReturnType<typeof startMock>>;
  let result: ContractResult;
  beforeAll(async () => {
    mock = await startMock({ port: 0, watch: false, faults: '503=0.4,seed=4,ops=listRegions|getRegion' });
    result = await runContract({ baseUrl: mock.baseUrl, document, only: ['Regions'], examples: 1, seed: 1 });
  }, 180_000);
  afterAll(async () => { await mock?.stop(); });

  it('fails only where the target injected a fault, and names each one as injected', () => {
    const failed = findings(result);
    expect(failed.length).toBeGreaterThan(0);
    expect(result.exitCode).toBe(1);
    for (const finding of failed) expect(finding.reason, `${finding.op} › ${finding.check}`).toMatch(/^\[injected fault: 503\] /);
    const report = formatReport(result);
    expect(report).toMatch(new RegExp(`Injected faults: ${failed.length} failed checks? came from answers the target marked x-fault`));
    expect(report).toMatch(/x-fault: 503 on (listRegions|getRegion)/);
  });

  it('checked the rate-limit headers the mock sends with its successes', () => {
    const checks = result.operations.flatMap((op) => op.requests.flatMap((r) => r.checks)).filter((c) => c.name === 'X-RateLimit headers well-formed');
    expect(checks.length).toBeGreaterThan(0);
    expect(checks.every((c) => c.outcome === 'pass')).toBe(true);
  });
});
