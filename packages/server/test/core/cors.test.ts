// CORS and trusted hosts of the reference server (the rules of @cloudapi/spec/trust): only the
// origins given with corsOrigins are trusted, with their loopback twins, never with credentials;
// their preflights are answered (Private Network Access too); any other origin's preflight is
// refused with an ErrorResponse, its requests carry no CORS header and the refusal is logged. A
// Host that is not allowed is refused with a 403 saying how to allow it. Real HTTP on loopback.
import { request } from 'node:http';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server.js';
import { startTestServer, TOKENS } from '../harness/harness.js';
import type { TestServer } from '../harness/harness.js';

let t: TestServer;
const EXTRA = 'http://localhost:39999';
const logged: { msg: string; origin?: string }[] = [];

beforeAll(async () => {
  const logStream = new Writable({ write(chunk, _encoding, done) { logged.push(JSON.parse(String(chunk))); done(); } });
  t = await startTestServer({ name: 'cors', logLevel: 'warn', logStream, corsOrigins: [EXTRA], allowedHosts: ['api.test'] });
});
afterAll(() => t?.close());

const preflight = (origin: string, extra: Record<string, string> = {}, path = '/v4/volumes') => fetch(`${t.url}${path}`, {
  method: 'OPTIONS',
  headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type', ...extra },
});

/** GET with a Host header of our choosing (fetch sets its own). */
function withHost(host: string, path = '/v4/regions'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: new URL(t.url).port, path, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('CORS of the reference server', () => {
  it.each([EXTRA, 'http://127.0.0.1:39999', 'http://[::1]:39999'])('answers the preflight of the trusted origin %s (a loopback twin counts), without credentials', async (origin) => {
    const answer = await preflight(origin);
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe(origin);
    expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
    expect(answer.headers.get('access-control-allow-methods')).toContain('POST');
    expect(answer.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
  });

  it('trusts no docs origin it was not given (8080 included)', async () => {
    for (const origin of ['http://127.0.0.1:8080', 'http://localhost:8080']) expect((await preflight(origin)).status).toBe(403);
  });

  it('refuses the preflight of an untrusted origin, saying how to trust it, and logs the refusal once', async () => {
    const answer = await preflight('http://evil.example');
    expect(answer.status).toBe(403);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    const body = await answer.json() as { errors: { reason: string }[] };
    expect(body.errors[0]!.reason).toMatch(/http:\/\/evil\.example is not trusted.*CORS_ORIGINS/);
    await preflight('http://evil.example');
    const lines = logged.filter((line) => line.origin === 'http://evil.example');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.msg).toMatch(/CORS: The origin http:\/\/evil\.example is not trusted.*The browser shows the page no answer/);
  });

  it('never trusts the null origin', async () => {
    const answer = await preflight('null');
    expect(answer.status).toBe(403);
    expect(((await answer.json()) as { errors: { reason: string }[] }).errors[0]!.reason).toMatch(/"null".*never trusted/);
  });

  it('answers a Private Network Access preflight for a trusted origin only', async () => {
    const pna = { 'access-control-request-private-network': 'true' };
    expect((await preflight(EXTRA, pna)).headers.get('access-control-allow-private-network')).toBe('true');
    const refused = await preflight('https://public.example', pna);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-private-network')).toBeNull();
  });

  it('puts the CORS headers on answers to a trusted origin only, errors included; nosniff on every answer', async () => {
    const trusted = await fetch(`${t.url}/v4/volumes`, { headers: { origin: EXTRA, authorization: `Bearer ${TOKENS.full.token}` } });
    expect(trusted.status).toBe(200);
    expect(trusted.headers.get('access-control-allow-origin')).toBe(EXTRA);
    expect(trusted.headers.get('access-control-allow-credentials')).toBeNull();
    expect(trusted.headers.get('access-control-expose-headers')).toBe('*');
    expect(trusted.headers.get('x-content-type-options')).toBe('nosniff');
    const refused = await fetch(`${t.url}/v4/volumes`, { headers: { origin: EXTRA, authorization: 'Bearer wrong' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(EXTRA);
    const untrusted = await fetch(`${t.url}/v4/volumes`, { headers: { origin: 'http://evil.example', authorization: `Bearer ${TOKENS.full.token}` } });
    expect(untrusted.status).toBe(200);
    expect(untrusted.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('leaves OPTIONS without a preflight to the routes (204 with the path\'s methods in Allow, no CORS headers)', async () => {
    const answer = await fetch(`${t.url}/v4/volumes`, { method: 'OPTIONS' });
    expect(answer.status).toBe(204);
    expect(answer.headers.get('allow')).toMatch(/\bGET\b.*\bPOST\b/);
    expect(answer.headers.get('access-control-allow-methods')).toBeNull();
  });

  it('refuses a malformed origin at start-up, naming it', async () => {
    await expect(startServer({ port: 0, corsOrigins: ['127.0.0.1:8080/docs'] })).rejects.toThrow(/CORS origin "127\.0\.0\.1:8080\/docs" must be a scheme, host and port/);
  });
});

describe('trusted hosts of the reference server', () => {
  it('answers an IP address, localhost, a .localhost name and an allowed name; refuses any other Host with a 403 saying how to allow it', async () => {
    const port = new URL(t.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'api.localhost', 'API.test:1']) expect((await withHost(host)).status, host).toBe(200);
    const refused = await withHost(`evil.example:${port}`);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body).errors[0].reason).toMatch(/"evil\.example:\d+" is not served here.*ALLOWED_HOSTS=evil\.example \(or --allowed-host evil\.example\)/);
  });

  it('refuses a bad allowed host at start-up, naming it', async () => {
    await expect(startServer({ port: 0, allowedHosts: ['http://api.test'] })).rejects.toThrow(/ALLOWED_HOSTS: "http:\/\/api\.test" is not a host name/);
  });
});
