// CORS of the mock: the docs' origin and the origins added with corsOrigins / --cors-origin /
// CORS_ORIGINS are trusted; any other origin's preflight is refused with an ErrorResponse and its
// answers carry no CORS header. Real mock (Prism) on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '../src/index.mjs';
import { runBin } from './support/processes.mjs';

const EXTRA = 'http://127.0.0.1:39998';
let mock;
beforeAll(async () => { mock = await startMock({ port: 0, corsOrigins: [EXTRA], log: () => {} }); }, 60_000);
afterAll(() => mock?.stop());

const preflight = (origin) => fetch(`${mock.baseUrl}/volumes`, {
  method: 'OPTIONS',
  headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
});

describe('CORS of the mock', () => {
  it('answers the preflights of the docs\' origins and of the added one', async () => {
    for (const origin of ['http://127.0.0.1:8080', 'http://localhost:8080', EXTRA]) {
      const answer = await preflight(origin);
      expect({ origin, status: answer.status, allowed: answer.headers.get('access-control-allow-origin') }).toEqual({ origin, status: 204, allowed: origin });
      expect(answer.headers.get('access-control-allow-methods').split(', ')).toEqual(expect.arrayContaining(['GET', 'POST', 'DELETE']));
    }
  });

  it('refuses the preflight of an untrusted origin with an ErrorResponse saying how to trust it', async () => {
    const answer = await preflight('http://evil.example');
    expect(answer.status).toBe(403);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect((await answer.json()).errors[0].reason).toMatch(/http:\/\/evil\.example is not trusted.*--cors-origin/);
  });

  it('puts the CORS headers on answers to a trusted origin only', async () => {
    const trusted = await fetch(`${mock.baseUrl}/regions`, { headers: { origin: 'http://localhost:8080' } });
    expect(trusted.status).toBe(200);
    expect(trusted.headers.get('access-control-allow-origin')).toBe('http://localhost:8080');
    const untrusted = await fetch(`${mock.baseUrl}/regions`, { headers: { origin: 'http://evil.example' } });
    expect(untrusted.status).toBe(200);
    expect(untrusted.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses a malformed --cors-origin as bad usage (exit 2), naming it', async () => {
    const run = runBin(['--port', '0', '--cors-origin', 'localhost:8080/x']);
    expect((await run.exited).code).toBe(2);
    expect(run.stderr()).toMatch(/CORS origin "localhost:8080\/x" must be a scheme, host and port/);
  });
});
