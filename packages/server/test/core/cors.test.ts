// CORS: the docs' origin and the origins added with corsOrigins get the CORS headers and their
// preflights answered; any other origin's preflight is refused with an ErrorResponse, and its
// requests carry no CORS header. Real HTTP on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server.js';
import { startTestServer, TOKENS } from '../harness/harness.js';
import type { TestServer } from '../harness/harness.js';

let t: TestServer;
const EXTRA = 'http://127.0.0.1:39999';

beforeAll(async () => {
  t = await startTestServer({ name: 'cors', logLevel: 'error', corsOrigins: [EXTRA] });
});
afterAll(() => t?.close());

const preflight = (origin: string, path = '/v4/volumes') => fetch(`${t.url}${path}`, {
  method: 'OPTIONS',
  headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
});

describe('CORS of the reference server', () => {
  it.each(['http://127.0.0.1:8080', 'http://localhost:8080', EXTRA])('answers the preflight of the trusted origin %s', async (origin) => {
    const answer = await preflight(origin);
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe(origin);
    expect(answer.headers.get('access-control-allow-methods')).toContain('POST');
    expect(answer.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
  });

  it('refuses the preflight of an untrusted origin, saying how to trust it', async () => {
    const answer = await preflight('http://evil.example');
    expect(answer.status).toBe(403);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    const body = await answer.json() as { errors: { reason: string }[] };
    expect(body.errors[0].reason).toMatch(/http:\/\/evil\.example is not trusted.*CORS_ORIGINS/);
  });

  it('puts the CORS headers on answers to a trusted origin only, errors included', async () => {
    const trusted = await fetch(`${t.url}/v4/volumes`, { headers: { origin: 'http://127.0.0.1:8080', authorization: `Bearer ${TOKENS.full.token}` } });
    expect(trusted.status).toBe(200);
    expect(trusted.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:8080');
    const refused = await fetch(`${t.url}/v4/volumes`, { headers: { origin: 'http://127.0.0.1:8080', authorization: 'Bearer wrong' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:8080');
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
