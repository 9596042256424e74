// CORS and trusted hosts of the mock (the rules of @cloudapi/spec/trust, applied by the front
// layer): only the origins given with corsOrigins / --cors-origin / CORS_ORIGINS are trusted, with
// their loopback twins, never with credentials; any other origin's preflight is refused with an
// ErrorResponse, its answers carry no CORS header and the refusal is logged; a Private Network
// Access preflight is answered for trusted origins; in proxy mode the mock's policy stands over
// the implementation's. A Host that is not allowed is refused. Real mock (Prism) on loopback.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '../src/index.mjs';
import { startStandIn } from './fixtures/stand-in.mjs';
import { runBin } from './support/processes.mjs';

const EXTRA = 'http://127.0.0.1:39998';
let mock;
let proxy;
let standIn;
const lines = [];
beforeAll(async () => {
  standIn = await startStandIn();
  standIn.state.reflectCors = true;
  [mock, proxy] = await Promise.all([
    startMock({ port: 0, corsOrigins: [EXTRA], allowedHosts: ['mock.test'], log: (line) => lines.push(line) }),
    startMock({ port: 0, proxy: standIn.baseUrl, corsOrigins: [EXTRA], watch: false, log: () => {} }),
  ]);
}, 60_000);
afterAll(() => Promise.all([mock?.stop(), proxy?.stop(), standIn?.stop()]));

const preflight = (origin, base = mock.baseUrl, extra = {}) => fetch(`${base}/volumes`, {
  method: 'OPTIONS',
  headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type', ...extra },
});

/** GET with a Host header of our choosing (fetch sets its own). */
function withHost(host, path = '/v4/regions') {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: mock.port, path, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('CORS of the mock', () => {
  it('answers the preflights of the added origin and its loopback twins, without credentials', async () => {
    for (const origin of [EXTRA, 'http://localhost:39998', 'http://[::1]:39998']) {
      const answer = await preflight(origin);
      expect({ origin, status: answer.status, allowed: answer.headers.get('access-control-allow-origin') }).toEqual({ origin, status: 204, allowed: origin });
      expect(answer.headers.get('access-control-allow-methods').split(', ')).toEqual(expect.arrayContaining(['GET', 'POST', 'DELETE']));
      expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  it('trusts no docs origin it was not given (8080 included)', async () => {
    for (const origin of ['http://127.0.0.1:8080', 'http://localhost:8080']) expect((await preflight(origin)).status).toBe(403);
  });

  it('refuses the preflight of an untrusted origin with an ErrorResponse saying how to trust it, and logs it', async () => {
    const answer = await preflight('http://evil.example');
    expect(answer.status).toBe(403);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect((await answer.json()).errors[0].reason).toMatch(/http:\/\/evil\.example is not trusted.*--cors-origin/);
    expect(lines.join('\n')).toMatch(/✖ CORS: The origin http:\/\/evil\.example is not trusted/);
  });

  it('never trusts the null origin', async () => {
    const answer = await preflight('null');
    expect(answer.status).toBe(403);
    expect((await answer.json()).errors[0].reason).toMatch(/"null".*never trusted/);
  });

  it('answers a Private Network Access preflight for a trusted origin only', async () => {
    const pna = { 'access-control-request-private-network': 'true' };
    expect((await preflight(EXTRA, mock.baseUrl, pna)).headers.get('access-control-allow-private-network')).toBe('true');
    const refused = await preflight('https://public.example', mock.baseUrl, pna);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-private-network')).toBeNull();
  });

  it('puts the CORS headers on answers to a trusted origin only, and nosniff on every answer', async () => {
    const trusted = await fetch(`${mock.baseUrl}/regions`, { headers: { origin: 'http://localhost:39998' } });
    expect(trusted.status).toBe(200);
    expect(trusted.headers.get('access-control-allow-origin')).toBe('http://localhost:39998');
    expect(trusted.headers.get('access-control-allow-credentials')).toBeNull();
    expect(trusted.headers.get('x-content-type-options')).toBe('nosniff');
    const untrusted = await fetch(`${mock.baseUrl}/regions`, { headers: { origin: 'http://evil.example' } });
    expect(untrusted.status).toBe(200);
    expect(untrusted.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('keeps its own policy in proxy mode over the implementation\'s', async () => {
    const direct = await fetch(`${standIn.baseUrl}/regions`, { headers: { origin: 'http://evil.example' } });
    expect(direct.headers.get('access-control-allow-origin')).toBe('http://evil.example');
    const through = await fetch(`${proxy.baseUrl}/regions`, { headers: { origin: 'http://evil.example' } });
    expect(through.status).toBe(200);
    expect(through.headers.get('access-control-allow-origin')).toBeNull();
    expect(through.headers.get('access-control-allow-credentials')).toBeNull();
    expect(through.headers.get('vary')).toBe('accept, origin');
    const trusted = await fetch(`${proxy.baseUrl}/regions`, { headers: { origin: EXTRA } });
    expect(trusted.headers.get('access-control-allow-origin')).toBe(EXTRA);
    expect(trusted.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('refuses a malformed --cors-origin as bad usage (exit 2), naming it', async () => {
    const run = runBin(['--port', '0', '--cors-origin', 'localhost:8080/x']);
    expect((await run.exited).code).toBe(2);
    expect(run.stderr()).toMatch(/CORS origin "localhost:8080\/x" must be a scheme, host and port/);
  });
});

describe('trusted hosts of the mock', () => {
  it('answers an IP address, localhost, a .localhost name and an allowed name; refuses any other Host with a 403 saying how to allow it', async () => {
    for (const host of [`127.0.0.1:${mock.port}`, `localhost:${mock.port}`, 'api.localhost', 'mock.test:1']) expect((await withHost(host)).status, host).toBe(200);
    const refused = await withHost(`evil.example:${mock.port}`);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body).errors[0].reason).toMatch(/"evil\.example:\d+" is not served here.*ALLOWED_HOSTS=evil\.example/);
  });

  it('refuses a bad --allowed-host as bad usage (exit 2), naming it', async () => {
    const run = runBin(['--port', '0', '--allowed-host', 'http://mock.test']);
    expect((await run.exited).code).toBe(2);
    expect(run.stderr()).toMatch(/ALLOWED_HOSTS: "http:\/\/mock\.test" is not a host name/);
  });
});
