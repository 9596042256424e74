// The shared fault-injection decisions (lib/faults.mjs): the FAULTS format, its errors, seeded and
// reproducible draws per operation, shares that hold over many requests, X-Fault on one request.
import { describe, expect, it } from 'vitest';
import { createFaultInjector, droppedAnswer, faultHeaders, parseFaultRequest, parseFaults } from '../lib/faults.mjs';

describe('parseFaults', () => {
  it('reads every key of the fixed format', () => {
    const config = parseFaults('latency=100~50, 429=0.1,503=0.05,drop=0.02,seed=7,ops=getVolume|listVolumes', { operations: ['getVolume', 'listVolumes'] });
    expect(config).toMatchObject({ latency: { ms: 100, jitter: 50 }, shares: { 429: 0.1, 503: 0.05, drop: 0.02 }, seed: 7 });
    expect([...config.ops]).toEqual(['getVolume', 'listVolumes']);
    expect(parseFaults('')).toBeNull();
    expect(parseFaults(undefined)).toBeNull();
  });

  it.each([
    ['429=1.5', /429=1\.5: the share must be a number from 0 to 1/],
    ['503=-0.1', /503=-0\.1: the share must be/],
    ['latency=abc', /latency: "abc" must be whole milliseconds/],
    ['latency=10~5~1', /write latency=<ms> or latency=<ms>~<jitter ms>/],
    ['seed=x', /seed=x: the seed must be an integer/],
    ['speed=3', /unknown key "speed"/],
    ['429', /"429" is not key=value/],
    ['429=0.6,503=0.6', /add up to 1\.2, more than 1/],
    ['429=0.1,429=0.2', /429 is given twice/],
    ['ops=getVolume|nope', /nope is not an operationId/],
  ])('refuses %s naming the rule', (text, message) => {
    expect(() => parseFaults(text, { operations: ['getVolume'] })).toThrow(message);
  });
});

describe('createFaultInjector', () => {
  const kinds = (text, operationId, n) => {
    const injector = createFaultInjector(parseFaults(text));
    return Array.from({ length: n }, () => injector.decide({ operationId })?.fault ?? 'none');
  };

  it('repeats the same decisions for the same seed, per operation, whatever else is asked between', () => {
    const first = kinds('429=0.3,503=0.3,drop=0.1,seed=11', 'getVolume', 50);
    const mixed = createFaultInjector(parseFaults('429=0.3,503=0.3,drop=0.1,seed=11'));
    const interleaved = [];
    for (let i = 0; i < 50; i++) {
      mixed.decide({ operationId: 'listVolumes' });
      interleaved.push(mixed.decide({ operationId: 'getVolume' })?.fault ?? 'none');
    }
    expect(interleaved).toEqual(first);
    expect(kinds('429=0.3,503=0.3,drop=0.1,seed=12', 'getVolume', 50)).not.toEqual(first);
  });

  it('keeps the shares over many requests, and no fault outside ops', () => {
    const decisions = kinds('429=0.2,503=0.1,drop=0.05,seed=3', 'listRegions', 4000);
    const share = (kind) => decisions.filter((d) => d === kind).length / decisions.length;
    expect(share('429')).toBeCloseTo(0.2, 1);
    expect(share('503')).toBeCloseTo(0.1, 1);
    expect(share('drop')).toBeCloseTo(0.05, 1);
    expect(kinds('503=1,ops=getVolume', 'listRegions', 20)).toEqual(Array(20).fill('none'));
  });

  it('keeps jittered latency within ms ± jitter', () => {
    const injector = createFaultInjector(parseFaults('latency=100~40,seed=9'));
    const delays = Array.from({ length: 500 }, () => injector.decide({ operationId: 'getVolume' }).delayMs);
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(60);
    expect(Math.max(...delays)).toBeLessThanOrEqual(140);
    expect(new Set(delays).size).toBeGreaterThan(20);
  });

  it('honours X-Fault for one request when enabled, and marks every injected answer', () => {
    expect(parseFaultRequest('drop')).toEqual({ fault: 'drop', delayMs: 0 });
    expect(() => parseFaultRequest('500')).toThrow(/X-Fault: "500" is not a fault/);
    const off = createFaultInjector(null);
    expect(off.decide({ operationId: 'getVolume', header: '503' })).toBeNull();
    const on = createFaultInjector(null, { honourHeader: true });
    const decision = on.decide({ operationId: 'getVolume', header: '429' });
    expect(faultHeaders(decision)).toEqual({ 'x-fault': '429', 'retry-after': '1' });
    expect(faultHeaders(on.decide({ operationId: 'getVolume', header: 'latency=50' }))).toEqual({ 'x-fault': 'latency' });
  });
});

describe('droppedAnswer', () => {
  it('promises a whole JSON body and holds only its start, marked as the fault it is', () => {
    const decision = createFaultInjector(parseFaults('latency=5')).decide({ operationId: 'getVolume', header: 'drop' });
    const { status, headers, partialBody } = droppedAnswer({ ...decision, kinds: ['latency', 'drop'] });
    expect(status).toBe(200);
    expect(headers).toMatchObject({ 'x-fault': 'latency, drop', 'content-type': 'application/json' });
    // The client must meet a cut: fewer bytes than promised, and no JSON it could parse.
    expect(Number(headers['content-length'])).toBeGreaterThan(Buffer.byteLength(partialBody));
    expect(() => JSON.parse(partialBody)).toThrow(SyntaxError);
  });
});
