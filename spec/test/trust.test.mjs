// The shared trust rules (lib/trust.mjs) the docs, the mock and the server apply: which Host a
// request may carry, which request targets are served, which origins CORS trusts and what a
// preflight is answered.
import { describe, expect, it } from 'vitest';
import { createCorsPolicy, createHostRule, exposureNotice, firstSightings, parseAllowedHosts, parseCorsOrigins } from '../lib/trust.mjs';

const request = (host, url = '/v4/regions', extra = {}) => ({ url, headers: host === undefined ? {} : { host }, rawHeaders: host === undefined ? [] : ['Host', host], ...extra });

describe('the Host rule', () => {
  const rule = createHostRule();

  it.each(['127.0.0.1:4020', '127.0.0.1', '10.1.2.3:80', '[::1]:4010', '[2001:db8::1]', 'localhost', 'LOCALHOST:8080', 'localhost.:1', 'docs.localhost:8080', 'a.b.localhost'])('serves %s by default', (host) => {
    expect(rule.check(request(host))).toEqual({ ok: true, target: '/v4/regions' });
  });

  it.each(['evil.example', 'evil.example:4020', 'localhost.evil.example', '127.0.0.1.nip.io', 'my-machine'])('refuses %s with a 403 saying how to allow it', (host) => {
    const verdict = rule.check(request(host));
    expect(verdict).toMatchObject({ ok: false, status: 403 });
    expect(verdict.reason).toContain(`"${host}" is not served here`);
    expect(verdict.reason).toMatch(/ALLOWED_HOSTS=\S+ \(or --allowed-host \S+\)/);
  });

  it.each([
    [undefined, /Send a Host header/],
    ['', /Send a Host header/],
    ['a b', /is not a host name/],
    ['x:y:z', /is not a host name/],
    ['[zz]:1', /is not a host name/],
    ['localhost:80/x', /is not a host name/],
    ['user@localhost', /is not a host name/],
    ['.localhost', /is not a host name/],
    ['bad\u0001host', /"bad\\u0001host" is not a host name/],
  ])('refuses the Host %j with a 400', (host, reason) => {
    const verdict = rule.check(request(host));
    expect(verdict).toMatchObject({ ok: false, status: 400 });
    expect(verdict.reason).toMatch(reason);
  });

  it('refuses HTTP/1.0 without Host and two Host headers', () => {
    expect(rule.check({ url: '/', httpVersion: '1.0', headers: {}, rawHeaders: [] })).toMatchObject({ ok: false, status: 400 });
    expect(rule.check({ url: '/', headers: { host: 'localhost' }, rawHeaders: ['Host', 'localhost', 'host', 'evil.example'] })).toEqual({ ok: false, status: 400, reason: 'Send one Host header, not 2.' });
  });

  it('serves the names ALLOWED_HOSTS adds, a leading dot for a name and every name under it', () => {
    const wider = createHostRule('my-machine, .example.com');
    for (const host of ['my-machine', 'MY-MACHINE:4020', 'example.com', 'docs.example.com:8080']) expect(wider.check(request(host)).ok).toBe(true);
    for (const host of ['my-machine.evil', 'notexample.com', 'example.com.evil']) expect(wider.check(request(host)).ok).toBe(false);
    expect(createHostRule(['a.test', 'b.test']).check(request('b.test')).ok).toBe(true);
  });

  it('takes a path, an absolute URL naming the Host (served as its path), and nothing else', () => {
    expect(rule.check(request('127.0.0.1:9', '//'))).toEqual({ ok: true, target: '//' });
    expect(rule.check(request('127.0.0.1:9', 'http://127.0.0.1:9/v4/regions?page=2'))).toEqual({ ok: true, target: '/v4/regions?page=2' });
    expect(rule.check(request('127.0.0.1:9', 'http://127.0.0.1:9'))).toEqual({ ok: true, target: '/' });
    for (const target of ['http://evil.example/v4/regions', 'http://127.0.0.1:10/', 'http://127.0.0.1/']) {
      const verdict = rule.check(request('127.0.0.1:9', target));
      expect(verdict).toMatchObject({ ok: false, status: 400 });
      expect(verdict.reason).toMatch(/names the host .* but the Host header says "127\.0\.0\.1:9"/);
    }
    for (const target of ['*', '127.0.0.1:9', 'v4/regions', 'ftp://127.0.0.1:9/']) {
      expect(rule.check(request('127.0.0.1:9', target))).toMatchObject({ ok: false, status: 400, reason: expect.stringMatching(/is not a path/) });
    }
  });

  it('refuses an ALLOWED_HOSTS entry that is no host name, naming it', () => {
    for (const entry of ['http://x.example', 'x.example:8080', 'a b/c', '.']) expect(() => parseAllowedHosts(entry)).toThrow(/ALLOWED_HOSTS: ".+" is not a host name/);
    expect(parseAllowedHosts(['A.test', 'b.test. , .c.test'])).toEqual(['a.test', 'b.test', '.c.test']);
    expect(parseAllowedHosts(undefined)).toEqual([]);
  });

  it('tells a user binding every interface how to add names, and nobody else', () => {
    expect(exposureNotice('0.0.0.0')).toMatch(/ALLOWED_HOSTS=my-machine.*TOKENS_FILE/);
    expect(exposureNotice('::', { allowedHosts: ['my-machine'] })).toMatch(/answers the names my-machine/);
    expect(exposureNotice('127.0.0.1')).toBeNull();
  });
});

describe('the CORS policy', () => {
  const preflight = (policy, origin, extra = {}) => policy.preflight({ method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type', ...extra } });

  it('trusts nothing by default', () => {
    const policy = createCorsPolicy();
    expect(policy.origins).toEqual([]);
    for (const origin of ['http://127.0.0.1:8080', 'http://localhost:8080', 'null']) {
      expect(policy.trusts(origin)).toBe(false);
      expect(policy.headers(origin)).toEqual({ vary: 'origin' });
      expect(preflight(policy, origin)).toMatchObject({ status: 403, reason: expect.stringMatching(/trusted for cross-origin calls.*--cors-origin or CORS_ORIGINS/) });
    }
  });

  it('trusts a named origin and its loopback twins, never with credentials', () => {
    const policy = createCorsPolicy(['http://localhost:4173']);
    expect(policy.origins.sort()).toEqual(['http://127.0.0.1:4173', 'http://[::1]:4173', 'http://localhost:4173']);
    for (const origin of policy.origins) {
      expect(policy.headers(origin)).toEqual({ 'access-control-allow-origin': origin, 'access-control-expose-headers': '*', vary: 'origin' });
      const answer = preflight(policy, origin);
      expect(answer.status).toBe(204);
      expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
      expect(answer.headers['access-control-allow-headers']).toBe('authorization, content-type');
    }
    expect(policy.trusts('http://localhost:4174')).toBe(false);
    expect(policy.trusts('https://localhost:4173')).toBe(false);
    expect(createCorsPolicy('https://app.example').origins).toEqual(['https://app.example']);
  });

  it('answers a Private Network Access preflight for trusted origins only', () => {
    const policy = createCorsPolicy('http://127.0.0.1:8080');
    const pna = { 'access-control-request-private-network': 'true' };
    expect(preflight(policy, 'http://127.0.0.1:8080', pna).headers['access-control-allow-private-network']).toBe('true');
    expect(preflight(policy, 'http://127.0.0.1:8080').headers['access-control-allow-private-network']).toBeUndefined();
    const refused = preflight(policy, 'https://evil.example', pna);
    expect(refused.status).toBe(403);
    expect(refused.headers['access-control-allow-private-network']).toBeUndefined();
  });

  it('reads * as access-control-allow-origin: * without credentials, and never trusts null', () => {
    const policy = createCorsPolicy('*');
    expect(policy.headers('https://anyone.example')).toEqual({ 'access-control-allow-origin': '*', 'access-control-expose-headers': '*', vary: 'origin' });
    expect(preflight(policy, 'https://anyone.example').headers['access-control-allow-origin']).toBe('*');
    expect(policy.trusts('null')).toBe(false);
    expect(preflight(policy, 'null')).toMatchObject({ status: 403, reason: expect.stringMatching(/"null".*never trusted/) });
  });

  it('answers only preflights: OPTIONS with Origin and Access-Control-Request-Method', () => {
    const policy = createCorsPolicy('*');
    expect(policy.preflight({ method: 'OPTIONS', headers: {} })).toBeNull();
    expect(policy.preflight({ method: 'OPTIONS', headers: { origin: 'http://a.example' } })).toBeNull();
    expect(policy.preflight({ method: 'GET', headers: { origin: 'http://a.example', 'access-control-request-method': 'GET' } })).toBeNull();
  });

  it('does not echo requested headers that are no header names', () => {
    const answer = preflight(createCorsPolicy('*'), 'http://a.example', { 'access-control-request-headers': 'x-a\r\nset-cookie: 1' });
    expect(answer.headers['access-control-allow-headers']).toBe('authorization, content-type');
  });

  it('refuses a malformed origin and null, naming them', () => {
    for (const origin of ['127.0.0.1:8080', 'http://127.0.0.1:8080/docs', 'ftp://x.example', 'http://x.example?q']) expect(() => parseCorsOrigins(origin)).toThrow(`CORS origin "${origin}" must be a scheme, host and port only`);
    expect(() => parseCorsOrigins('null')).toThrow(/"null" is never trusted/);
    expect(parseCorsOrigins('http://x.example/, *')).toEqual(['http://x.example', '*']);
  });
});

describe('firstSightings', () => {
  it('is true once per key and stays bounded', () => {
    const seen = firstSightings(3);
    expect(['a', 'a', 'b', 'c', 'b'].map((key) => seen.first(key))).toEqual([true, false, true, true, false]);
    expect(seen.first('d')).toBe(true); // the fourth key starts over
    expect(seen.first('a')).toBe(true);
  });
});
