// Fault injection in the mock (FAULTS / --faults, and X-Fault on one request): the same seeded
// decisions as the reference server (the shared @cloudapi/spec/faults), every injected answer
// marked x-fault and logged, a 429 with Retry-After, a cut connection, a bad setting refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFaultInjector, parseFaults } from '@cloudapi/spec/faults';
import { startMock } from '../src/index.mjs';
import { runBin } from './support/processes.mjs';

const FAULTS = '429=0.25,503=0.25,latency=20~10,seed=5,ops=listRegions';
let mock;
const logged = [];
beforeAll(async () => {
  mock = await startMock({ port: 0, watch: false, faults: FAULTS, log: (line) => logged.push(line) });
}, 60_000);
afterAll(() => mock?.stop());

async function regionsStatuses(n) {
  const seen = [];
  for (let i = 0; i < n; i++) {
    const answer = await fetch(`${mock.baseUrl}/regions`);
    await answer.arrayBuffer();
    seen.push(`${answer.status} ${answer.headers.get('x-fault')}`);
  }
  return seen;
}

describe('the mock with FAULTS', () => {
  it('injects the seeded faults on the named operation only, each marked and logged', async () => {
    const seen = await regionsStatuses(16);
    expect(seen).toContain('429 latency, 429');
    expect(seen).toContain('503 latency, 503');
    expect(seen).toContain('200 latency');
    expect(seen.every((s) => /^(200 latency|429 latency, 429|503 latency, 503)$/.test(s))).toBe(true);
    expect(logged.filter((line) => /fault injected: latency \d+ ms.* on listRegions/.test(line))).toHaveLength(16);
    const other = await fetch(`${mock.baseUrl}/volumes`, { headers: { authorization: 'Bearer t' } });
    expect(other.status).toBe(200);
    expect(other.headers.get('x-fault')).toBeNull();
  });

  it('answers an injected 429 as an ErrorResponse with Retry-After, and one asked by X-Fault on any operation', async () => {
    const answer = await fetch(`${mock.baseUrl}/volumes`, { headers: { authorization: 'Bearer t', 'x-fault': '429' } });
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(answer.headers.get('x-fault')).toBe('429');
    expect((await answer.json()).errors[0].reason).toMatch(/injected/);
    await expect(fetch(`${mock.baseUrl}/volumes`, { headers: { authorization: 'Bearer t', 'x-fault': 'drop' } }).then((r) => r.text())).rejects.toThrow(TypeError);
    const bad = await fetch(`${mock.baseUrl}/volumes`, { headers: { 'x-fault': '418' } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors[0].reason).toMatch(/X-Fault: "418" is not a fault/);
  });

  it('made the decisions of the shared module for that seed: the same as the reference server makes', () => {
    const injector = createFaultInjector(parseFaults(FAULTS));
    const expected = Array.from({ length: 16 }, () => injector.decide({ operationId: 'listRegions' }).fault ?? '200');
    const original = logged.slice(0, 16).map((line) => /latency \d+ ms \+ (429|503)/.exec(line)?.[1] ?? '200');
    expect(original).toEqual(expected);
  });
});

describe('cloudapi-mock --faults', () => {
  it('refuses a bad setting with status 2, naming the item', async () => {
    const bin = runBin(['--faults', 'latency=fast']);
    expect((await bin.exited).code).toBe(2);
    expect(bin.stderr()).toMatch(/FAULTS: latency: "fast" must be whole milliseconds/);
  });

  it('refuses an operationId the API does not have', async () => {
    await expect(startMock({ port: 0, watch: false, faults: 'ops=getNothing' })).rejects.toThrow(/getNothing is not an operationId/);
  });
});
