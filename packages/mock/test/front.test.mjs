// The front layer in front of the real Prism: every hostile or odd request gets a 4xx
// ErrorResponse with a status the operation declares, Prism never dies of one, and the honest
// requests it used to get wrong (lower-case bearer, HEAD) are answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { operations } from '@cloudapi/spec/walk';
import { startMock } from '../src/index.mjs';
import { auth, bundle, errorResponseProblems } from './support/spec.mjs';

let mock;
const logged = [];
beforeAll(async () => { mock = await startMock({ port: 0, log: (line) => logged.push(line) }); }, 60_000);
afterAll(async () => { await mock?.stop(); });

const json = { ...auth, 'content-type': 'application/json' };
const declared = new Map([...operations(bundle)].map((op) => [`${op.method.toUpperCase()} ${op.path}`, Object.keys(op.operation.responses)]));

// The requests that used to kill the mock or get an undeclared answer: [label, template, path, init, status].
const HOSTILE = [
  ['malformed escape in a path parameter', 'GET /regions/{regionId}', '/regions/%zz', {}, 400],
  ['a lone % in a path parameter', 'GET /volumes/{volumeId}', '/volumes/%', { headers: auth }, 400],
  ['a malformed escape in the query', 'GET /regions', '/regions?page=%e0%a4', {}, 400],
  ['JSON nested 10,000 levels deep', 'POST /volumes', '/volumes', { method: 'POST', headers: json, body: `${'['.repeat(10_000)}${']'.repeat(10_000)}` }, 400],
  ['malformed JSON', 'POST /volumes', '/volumes', { method: 'POST', headers: json, body: '{"label": "data",' }, 400],
  ['a body over 10 MB', 'POST /volumes', '/volumes', { method: 'POST', headers: json, body: JSON.stringify({ label: 'x'.repeat(10.5 * 1024 * 1024), region: 'us-east' }) }, 413],
  ['Prefer: code=500', 'GET /regions', '/regions', { headers: { prefer: 'code=500' } }, 400],
  ['Prefer: code= that is no status', 'GET /regions', '/regions', { headers: { prefer: 'code=abc' } }, 400],
  ['Prefer: an unknown example name', 'GET /regions/{regionId}', '/regions/us-east', { headers: { prefer: 'example=no-such-example' } }, 400],
  ['Prefer: dynamic= neither true nor false', 'GET /regions', '/regions', { headers: { prefer: 'dynamic=maybe' } }, 400],
  ['an Accept no response offers', 'GET /regions', '/regions', { headers: { accept: 'text/html' } }, 400],
  ['a Content-Type the operation does not take', 'POST /volumes', '/volumes', { method: 'POST', headers: { ...auth, 'content-type': 'text/plain' }, body: 'label=data' }, 400],
  ['a query value out of range', 'GET /regions', '/regions?page_size=5000', {}, 400],
  ['a method the path does not have', 'DELETE /regions', '/regions', { method: 'DELETE' }, 405],
  ['a path the API does not have', null, '/no-such-thing', {}, 404],
];

describe('the front layer refuses what used to crash or mislead the mock', () => {
  it('answers every hostile request with a 4xx ErrorResponse the operation declares, then still answers a valid one from the same Prism', async () => {
    const pid = mock.prismPid;
    const failures = [];
    for (const [label, template, path, init, status] of HOSTILE) {
      const response = await fetch(`${mock.baseUrl}${path}`, init);
      const text = await response.text();
      let body = null;
      try { body = JSON.parse(text); } catch { /* reported below */ }
      if (response.status !== status) failures.push(`${label}: ${response.status} instead of ${status}: ${text.slice(0, 200)}`);
      if (!/^application\/json/.test(response.headers.get('content-type') ?? '')) failures.push(`${label}: content-type ${response.headers.get('content-type')}`);
      const problems = body ? errorResponseProblems(body) : ['not JSON'];
      if (problems.length) failures.push(`${label}: not an ErrorResponse (${problems.join('; ')}): ${text.slice(0, 200)}`);
      // 405 is the one status no operation can declare (the operation does not exist; spec/DECISIONS.md).
      if (template && status !== 405 && !declared.get(template)?.includes(String(status))) failures.push(`${label}: ${template} does not declare ${status}`);
      if (!response.headers.get('sl-violations')) failures.push(`${label}: no sl-violations header saying why`);
    }
    expect(failures).toEqual([]);

    const valid = await fetch(`${mock.baseUrl}/volumes`, { method: 'POST', headers: json, body: JSON.stringify({ label: 'data', region: 'us-east' }) });
    expect(valid.status).toBe(200);
    expect((await valid.json()).label).toBeTypeOf('string');
    expect(mock.prismPid).toBe(pid); // no restart was needed: Prism never saw what would kill it
    expect(logged.filter((line) => /Prism .*(exited|killed)/.test(line))).toEqual([]);
  }, 120_000);

  it('names the field a bad value sits in', async () => {
    const pathValue = await (await fetch(`${mock.baseUrl}/regions/%zz`)).json();
    expect(pathValue.errors).toEqual([{ field: 'regionId', reason: expect.stringMatching(/%zz.*percent-encoding/) }]);
    const queryValue = await (await fetch(`${mock.baseUrl}/regions?page_size=5000`)).json();
    expect(queryValue.errors).toEqual([{ field: 'page_size', reason: expect.stringMatching(/100/) }]);
  });

  it('answers POST /v4/volumes with {"label":"data"} with a 400 naming region, the field that is missing', async () => {
    const response = await fetch(`${mock.baseUrl}/volumes`, { method: 'POST', headers: json, body: JSON.stringify({ label: 'data' }) });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.errors.map((e) => e.field)).toEqual(['region']);
    expect(errorResponseProblems(body)).toEqual([]);
  });

  it('names every offending field, nested ones by their dotted path', async () => {
    const response = await fetch(`${mock.baseUrl}/volumes`, { method: 'POST', headers: json, body: JSON.stringify({ label: 'data', region: 'us-east', size: 'big', colour: 'red' }) });
    expect(response.status).toBe(400);
    const fields = (await response.json()).errors.map((e) => e.field).sort();
    expect(fields).toEqual(['colour', 'size']);
  });

  it('still serves the canned 400 example when Prefer: example= asks for it', async () => {
    const response = await fetch(`${mock.baseUrl}/volumes`, { method: 'POST', headers: { ...json, prefer: 'example=invalidField' }, body: JSON.stringify({ label: 'data' }) });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(bundle.components.responses.BadRequest.content['application/json'].examples.invalidField.value);
  });

  it('says what is declared when Prefer asks for something that is not', async () => {
    const body = await (await fetch(`${mock.baseUrl}/regions`, { headers: { prefer: 'code=500' } })).json();
    expect(body.errors[0].reason).toMatch(/code=500.*listRegions.*declares 200, 400, 429/);
  });

  it('answers 405 with the methods the path has in Allow', async () => {
    const response = await fetch(`${mock.baseUrl}/regions`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });

  it('refuses a body over the cap without reading it all, and keeps serving others meanwhile', async () => {
    const big = JSON.stringify({ label: 'x'.repeat(9 * 1024 * 1024), region: 'us-east' });
    const [large, small] = await Promise.all([
      fetch(`${mock.baseUrl}/volumes`, { method: 'POST', headers: json, body: big }),
      fetch(`${mock.baseUrl}/regions`),
    ]);
    expect(large.status).toBe(413);
    expect((await large.json()).errors[0].reason).toMatch(/1048576 bytes/);
    expect(small.status).toBe(200);
  }, 60_000);

  it('refuses a request that is not valid HTTP with a 400 ErrorResponse', async () => {
    const { status, body } = await rawRequest(mock.port, 'GET /v4/regions HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
    expect(status).toBe(400);
    expect(errorResponseProblems(JSON.parse(body))).toEqual([]);
  });
});

describe('requests the mock used to refuse', () => {
  it('accepts the bearer scheme in any case (RFC 9110)', async () => {
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      const response = await fetch(`${mock.baseUrl}/volumes`, { headers: { authorization: `${scheme} some-token` } });
      expect(response.status, scheme).toBe(200);
    }
    expect((await fetch(`${mock.baseUrl}/volumes`, { headers: { authorization: 'Basic abc' } })).status).toBe(401);
    expect((await fetch(`${mock.baseUrl}/volumes`, { headers: { authorization: 'bearer' } })).status).toBe(401);
  });

  it('answers HEAD on a GET route with the GET answer\'s status and headers, without a body', async () => {
    const head = await headRequest(`${mock.baseUrl}/regions/us-east`);
    const get = await fetch(`${mock.baseUrl}/regions/us-east`);
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe(get.headers.get('content-type'));
    expect(Number(head.headers['content-length'])).toBe((await get.text()).length);
    expect(head.body).toBe('');
    const missing = await headRequest(`${mock.baseUrl}/volumes/%`);
    expect(missing.status).toBe(400);
    expect(missing.body).toBe('');
  });
});

function headRequest(url) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'HEAD' }, (res) => {
      let body = '';
      res.on('data', (chunk) => { body += chunk; });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function rawRequest(port, text) {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let data = '';
    socket.on('data', (chunk) => { data += chunk; });
    socket.on('end', () => {
      const [head, ...rest] = data.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), body: rest.join('\r\n\r\n') });
    });
    socket.on('error', reject);
  });
}
