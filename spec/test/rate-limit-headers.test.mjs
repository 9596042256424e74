// The X-RateLimit-* headers: declared once on the shared 429 response, and added by the bundle
// to every success response (lib/rate-limit-headers.mjs), with the shared header components.
import { describe, expect, it } from 'vitest';
import { addRateLimitHeaders, RATE_LIMIT_HEADERS } from '../lib/rate-limit-headers.mjs';
import { deref, operations } from '../lib/walk.mjs';
import { loadBundle } from './helpers.mjs';

const bundle = loadBundle();

describe('rate-limit headers in the bundle', () => {
  it('every 429 declares Retry-After and the three X-RateLimit-* headers; every 2xx the three', () => {
    let successes = 0;
    for (const op of operations(bundle)) {
      for (const [status, raw] of Object.entries(op.operation.responses)) {
        const [response] = deref(bundle, raw);
        const where = `${op.operation.operationId} ${status}`;
        if (status === '429') expect(Object.keys(response.headers ?? {}), where).toEqual(expect.arrayContaining(['Retry-After', ...RATE_LIMIT_HEADERS]));
        if (/^2\d\d$/.test(status)) {
          successes += 1;
          for (const name of RATE_LIMIT_HEADERS) expect(response.headers?.[name]?.$ref, `${where} ${name}`).toMatch(/^#\/components\/headers\/RateLimit/);
        }
      }
    }
    expect(successes).toBeGreaterThan(100);
    for (const name of ['RateLimitLimit', 'RateLimitRemaining', 'RateLimitReset']) expect(bundle.components.headers[name].schema.type).toBe('integer');
  });

  it('adds nothing when the document has no 429 with the headers, and keeps a success\'s own declaration', () => {
    const own = { description: 'mine', schema: { type: 'integer' } };
    const document = {
      paths: { '/a': { get: { responses: { 200: { description: 'ok', headers: { 'X-RateLimit-Limit': own } }, 429: { description: 'slow', headers: { 'X-RateLimit-Limit': { schema: { type: 'integer' } } } } } } } },
    };
    addRateLimitHeaders(document);
    expect(document.paths['/a'].get.responses[200].headers['X-RateLimit-Limit']).toBe(own);
    const bare = { paths: { '/a': { get: { responses: { 200: { description: 'ok' } } } } } };
    addRateLimitHeaders(bare);
    expect(bare.paths['/a'].get.responses[200].headers).toBeUndefined();
  });
});
