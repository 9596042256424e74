// The validating proxy (`--proxy URL`): Prism's proxy mode in front of an implementation (here a
// stand-in, test/fixtures/stand-in.mjs). Requests and answers pass unchanged; each violation is
// logged on one line naming the operation and the field, and counted; with `errors` a violation
// fails the answer instead.
import { request } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startMock } from '../src/index.mjs';
import { startStandIn } from './fixtures/stand-in.mjs';
import { errorResponseProblems } from './support/spec.mjs';
import { runBin } from './support/processes.mjs';

const auth = { authorization: 'Bearer proxy-token' };
const json = { ...auth, 'content-type': 'application/json' };
let standIn;
let proxy;
let strict;
const lines = [];
const strictLines = [];

beforeAll(async () => {
  standIn = await startStandIn();
  [proxy, strict] = await Promise.all([
    startMock({ port: 0, proxy: standIn.baseUrl, watch: false, log: (line) => lines.push(line) }),
    startMock({ port: 0, proxy: standIn.baseUrl, errors: true, watch: false, log: (line) => strictLines.push(line) }),
  ]);
}, 90_000);
afterAll(async () => { await Promise.all([proxy?.stop(), strict?.stop(), standIn?.stop()]); });
beforeEach(() => { standIn.state.tamper = null; standIn.state.lenient = false; standIn.state.notImplemented = false; });

const since = (list, from) => list.slice(from);

describe('the validating proxy', () => {
  it('passes requests and answers through unchanged when both keep the contract, with nothing logged', async () => {
    const from = lines.length;
    const before = proxy.stats();
    const direct = await (await fetch(`${standIn.baseUrl}/volumes/12345`, { headers: auth })).json();
    const response = await fetch(`${proxy.baseUrl}/volumes/12345`, { headers: auth });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(direct);
    const seen = standIn.received.at(-1);
    expect(seen.url).toBe('/v4/volumes/12345'); // the base path is not doubled
    expect(seen.headers.authorization).toBe(auth.authorization);
    expect(response.headers.has('sl-violations')).toBe(false);
    expect((await fetch(`${proxy.baseUrl}/regions`)).status).toBe(200);
    expect(since(lines, from)).toEqual([]);
    expect(proxy.stats().exchanges - before.exchanges).toBe(2);
    expect(proxy.stats().violations).toBe(0);
  });

  it('logs a tampered answer on one line naming the operation and the field, counts it, and still passes it on', async () => {
    standIn.state.tamper = 'size-as-text';
    const from = lines.length;
    const before = proxy.stats().responseViolations;
    const response = await fetch(`${proxy.baseUrl}/volumes/12345`, { headers: auth });
    expect(response.status).toBe(200);
    expect((await response.json()).size).toMatch(/GB/);
    expect(response.headers.has('sl-violations')).toBe(false); // the implementation's answer, as it came
    const logged = since(lines, from);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^✖ getVolume \(GET \/v4\/volumes\/\{volumeId\}\) → 200: response body\.size: Must be integer\.$/);
    expect(proxy.stats().responseViolations).toBe(before + 1);

    standIn.state.tamper = 'no-region';
    const missing = since(lines, lines.length);
    await fetch(`${proxy.baseUrl}/volumes/12345`, { headers: auth });
    expect(lines.at(-1)).toMatch(/getVolume .* response body\.region: This field is required\./);
    expect(missing).toEqual([]);
  });

  it('forwards an invalid request: refused by the implementation it is only counted; accepted, it is a violation', async () => {
    const from = lines.length;
    const before = proxy.stats();
    const refused = await fetch(`${proxy.baseUrl}/volumes`, { method: 'POST', headers: json, body: JSON.stringify({ label: 'data' }) });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ errors: [{ field: 'region', reason: 'This field is required.' }] }); // the implementation's own answer
    expect(JSON.parse(standIn.received.at(-1).body)).toEqual({ label: 'data' });
    expect(since(lines, from)).toEqual([]); // the implementation refused it, as it should: counted, not told
    expect(proxy.stats().refusedInvalid).toBe(before.refusedInvalid + 1);
    expect(proxy.stats().violations).toBe(before.violations);

    standIn.state.lenient = true;
    const accepted = await fetch(`${proxy.baseUrl}/volumes`, { method: 'POST', headers: json, body: JSON.stringify({ label: 'data' }) });
    expect(accepted.status).toBe(200);
    expect(lines.at(-1)).toMatch(/^✖ createVolume \(POST \/v4\/volumes\) → 200: accepted an invalid request, request body\.region/);
    expect(proxy.stats().acceptedInvalid).toBe(before.acceptedInvalid + 1);
    expect(since(lines, from)).toHaveLength(1);
  });

  it('forwards the token as sent: a lower-case bearer is valid (RFC 9110) and no violation', async () => {
    const from = lines.length;
    const response = await fetch(`${proxy.baseUrl}/volumes/12345`, { headers: { authorization: 'bearer lower-case' } });
    expect(response.status).toBe(200);
    expect(standIn.received.at(-1).headers.authorization).toBe('bearer lower-case');
    expect(since(lines, from)).toEqual([]);
  });

  it('passes two Authorization headers on as one field line for the implementation to refuse, never one of them alone', async () => {
    const status = await new Promise((resolve, reject) => {
      const req = request(`${proxy.baseUrl}/volumes/12345`, { headers: { authorization: ['Bearer first', 'Bearer second'] } }, (res) => { res.resume(); resolve(res.statusCode); });
      req.on('error', reject);
      req.end();
    });
    expect(standIn.received.at(-1).headers.authorization).toBe('Bearer first, Bearer second');
    expect(status).toBe(200); // this stand-in only checks the scheme; the reference server answers 401
  });

  it('passes a 501 of the implementation on, never a mocked example in its place', async () => {
    standIn.state.notImplemented = true;
    const response = await fetch(`${proxy.baseUrl}/volumes/12345`, { headers: { authorization: 'Bearer t' } });
    expect(response.status).toBe(501);
    const body = await response.json();
    expect(body).not.toHaveProperty('id');
    expect(body.errors[0].reason).toMatch(/501 Not Implemented/);
  });

  it('still refuses what would crash Prism, before the implementation sees it', async () => {
    const count = standIn.received.length;
    const response = await fetch(`${proxy.baseUrl}/volumes/%zz`, { headers: auth });
    expect(response.status).toBe(400);
    expect(errorResponseProblems(await response.json())).toEqual([]);
    expect(standIn.received.length).toBe(count);
  });
});

describe('the validating proxy with errors on', () => {
  it('answers a tampered response with a 502 ErrorResponse naming the field, and logs it', async () => {
    standIn.state.tamper = 'size-as-text';
    const from = strictLines.length;
    const response = await fetch(`${strict.baseUrl}/volumes/12345`, { headers: auth });
    expect(response.status).toBe(502);
    const body = await response.json();
    expect(errorResponseProblems(body)).toEqual([]);
    expect(body.errors[0].reason).toMatch(/implementation's answer breaks the contract: response body\.size: Must be integer/);
    expect(since(strictLines, from)).toEqual([expect.stringMatching(/^✖ getVolume .* → 502: response body\.size/)]);
    expect(strict.stats().responseViolations).toBeGreaterThan(0);
  });

  it('refuses an invalid request itself with a 400 naming the field; the implementation never sees it', async () => {
    const count = standIn.received.length;
    const response = await fetch(`${strict.baseUrl}/volumes`, { method: 'POST', headers: json, body: JSON.stringify({ label: 'data' }) });
    expect(response.status).toBe(400);
    expect((await response.json()).errors).toEqual([{ field: 'region', reason: 'This field is required.' }]);
    expect(standIn.received.length).toBe(count);
  });
});

describe.concurrent('cloudapi-mock --proxy URL --run COMMAND', () => {
  const client = (path) => `node -e "fetch(process.env.MOCK_BASE_URL + '${path}', { headers: { authorization: 'Bearer t' } }).then((r) => process.exit(r.status === 200 ? 0 : 3))"`;
  async function run(path, tamper) {
    const own = await startStandIn();
    own.state.tamper = tamper;
    try {
      const bin = runBin(['--proxy', own.baseUrl, '--no-watch', '--no-standby', '--run', client(path)]);
      return { ...(await bin.exited), stdout: bin.stdout(), stderr: bin.stderr() };
    } finally {
      await own.stop();
    }
  }

  it('runs the command through the proxy and exits 0 when nothing broke the contract', async () => {
    const { code, stdout } = await run('/volumes/12345', null);
    expect(stdout).toMatch(/proxy: 1 exchanges; 0 violations/);
    expect(code).toBe(0);
  }, 90_000);

  it('exits 1 when the implementation broke it, with the violation and the count printed', async () => {
    const { code, stdout, stderr } = await run('/volumes/12345', 'no-region');
    expect(stderr).toMatch(/✖ getVolume .* response body\.region: This field is required\./);
    expect(stdout).toMatch(/proxy: 1 exchanges; 1 violations \(1 in responses, 0 invalid requests accepted\)/);
    expect(code).toBe(1);
  }, 90_000);

  it('exits with the command\'s own status when it fails', async () => {
    expect((await run('/no-such-path', null)).code).toBe(3);
  }, 90_000);
});

describe('an implementation that stops answering', () => {
  it('gets a 502 ErrorResponse saying so (the last test here: it stops the stand-in)', async () => {
    await standIn.stop();
    const before = proxy.stats().unanswered;
    const response = await fetch(`${proxy.baseUrl}/regions`);
    expect(response.status).toBe(502);
    const body = await response.json();
    expect(errorResponseProblems(body)).toEqual([]);
    expect(body.errors[0].reason).toMatch(/could not be reached/);
    // The count comes from the worker over IPC, which may land after the answer itself.
    await vi.waitFor(() => expect(proxy.stats().unanswered).toBe(before + 1), { timeout: 5_000, interval: 20 });
  });
});
