// The mock as clients see it: the bundle served under the API's base path by Prism, behind the
// front layer. Valid requests get examples, invalid ones a 400 naming the fields, Prefer headers
// are honoured; every hostile or odd request gets a 4xx ErrorResponse with a status the operation
// declares, Prism never dies of one, and honest requests it used to refuse (lower-case bearer,
// HEAD) are answered. One mock serves the whole file; the last test stops it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { operations } from '@cloudapi/spec/walk';
import { basePathOf } from '@cloudapi/spec/bundle';
import { deriveMockDocument } from '../src/derive.mjs';
import { startMock } from '../src/index.mjs';
import { auth, bundle, errorResponseProblems, views } from './support/spec.mjs';

let mock;
const logged = [];
beforeAll(async () => { mock = await startMock({ port: 0, log: (line) => logged.push(line) }); }, 60_000);
afterAll(async () => { await mock?.stop(); });

describe('deriveMockDocument', () => {
  it('puts every path under the base path of the server URL and keeps the rest', () => {
    const derived = deriveMockDocument(bundle);
    expect(basePathOf(bundle)).toBe('/v4');
    expect(Object.keys(derived.paths)).toEqual(Object.keys(bundle.paths).map((p) => `/v4${p}`));
    expect(derived.components).toBe(bundle.components);
    expect(deriveMockDocument({ ...bundle, servers: [{ url: 'https://x.example/api/v9/' }] }).paths).toHaveProperty('/api/v9/regions');
  });
});

describe('the Prism mock', () => {
  it('listens on 127.0.0.1 and answers under /v4 with the example', async () => {
    expect(mock.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v4$/);
    const response = await fetch(`${mock.baseUrl}/regions`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const body = await response.json();
    expect(body.data.map((r) => r.id)).toContain('us-east');
  });

  it('does not serve paths without the base path', async () => {
    const response = await fetch(`${mock.url}/regions`);
    expect(response.status).toBe(404);
  });

  it('addresses image ids with their slash percent-encoded', async () => {
    const encoded = await fetch(`${mock.baseUrl}/images/${encodeURIComponent('compute/debian11')}`, { headers: { ...auth, prefer: 'example=public' } });
    expect(encoded.status).toBe(200);
    expect((await encoded.json()).id).toBe('compute/debian11');
    const invalid = await fetch(`${mock.baseUrl}/images/debian11`, { headers: auth });
    expect(invalid.status).toBe(400);
  });

  it('answers an invalid body with a 400 naming the field', async () => {
    const response = await fetch(`${mock.baseUrl}/volumes`, {
      method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ label: 'data', region: 'us-east', config_id: 1 }),
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.errors).toEqual([{ field: 'compute_id', reason: 'This field is required when config_id is present.' }]);
  });

  it('refuses a secured operation without a token', async () => {
    const response = await fetch(`${mock.baseUrl}/volumes`);
    expect(response.status).toBe(401);
  });

  it('honours Prefer: code= and Prefer: example=', async () => {
    const notFound = await fetch(`${mock.baseUrl}/volumes/12345`, { headers: { ...auth, prefer: 'code=404' } });
    expect(notFound.status).toBe(404);
    expect((await notFound.json()).errors[0].reason).toBe('Not found');
    const attached = await fetch(`${mock.baseUrl}/volumes`, {
      method: 'POST', headers: { ...auth, 'content-type': 'application/json', prefer: 'example=volume' },
      body: JSON.stringify({ label: 'data', region: 'us-east' }),
    });
    expect(attached.status).toBe(200);
    expect((await attached.json()).label).toBe('backup-data');
  });

});

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
    const { status, body } = await rawRequest(mock.port, 'GET /v4/regions HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n');
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

  it('refuses two Authorization headers with a 401 ErrorResponse, as a server must (which one would count?)', async () => {
    const raw = await rawRequest(mock.port, 'GET /v4/volumes HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer a\r\nAuthorization: Bearer b\r\nConnection: close\r\n\r\n');
    expect(raw.status).toBe(401);
    expect(JSON.parse(raw.body).errors[0].reason).toMatch(/one Authorization header: this request has 2/);
    const one = await rawRequest(mock.port, 'GET /v4/volumes HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer a\r\nConnection: close\r\n\r\n');
    expect(one.status).toBe(200);
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

describe('generated data on a mock serving examples', () => {
  it('answers Prefer: dynamic=true with data that validates and carries only declared fields', async () => {
    const failures = [];
    for (const [path, schema] of [['/regions', 'RegionList'], ['/regions/us-east', 'Region']]) {
      for (let i = 0; i < 20; i++) {
        const response = await fetch(`${mock.baseUrl}${path}`, { headers: { prefer: 'dynamic=true' } });
        const body = await response.json();
        const pointer = `#/components/schemas/${schema}`;
        const problems = [...views.validate('response', pointer, body).errors.map((e) => e.message), ...views.undeclared('response', pointer, body)];
        if (response.status !== 200 || problems.length) failures.push(`${path}: ${response.status} ${problems.join('; ')}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('stop()', () => {
  it('stops: the port no longer answers and the worker serving it is gone', async () => {
    const { prismPid } = mock;
    expect(() => process.kill(prismPid, 0)).not.toThrow();
    await mock.stop();
    await expect(fetch(`${mock.baseUrl}/regions`)).rejects.toThrow();
    expect(() => process.kill(prismPid, 0)).toThrow(/ESRCH/);
  }, 60_000);
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
