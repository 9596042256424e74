// What every request meets before and after a handler: errors as ErrorResponse, 404, 405 with
// Allow, 413, 415, malformed input of every kind answered 4xx (never 5xx), 500 with a request id
// that the log line carries, and responses written from the response schemas.
import { Writable } from 'node:stream';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as areas from '../../src/areas/index.js';
import { defineArea } from '../../src/core/area.js';
import { startTestServer, TOKENS } from '../harness/harness.js';
import type { TestServer } from '../harness/harness.js';

let t: TestServer;
const logLines: any[] = [];

// Volumes with two handlers changed: getVolume fails unexpectedly for label "explode" and adds
// an undeclared field otherwise.
const volumes = areas.volumes;
const changedVolumes = defineArea({
  ...volumes,
  handlers: {
    ...volumes.handlers,
    getVolume: async (ctx) => {
      const volume = await (volumes.handlers.getVolume as any)(ctx);
      if (volume.label === 'explode') throw new Error('a bug in a handler');
      return { ...volume, internal_note: 'never sent' } as any;
    },
  },
});

beforeAll(async () => {
  const logStream = new Writable({ write(chunk, _encoding, done) { logLines.push(JSON.parse(String(chunk))); done(); } });
  t = await startTestServer({ name: 'http', areas: [...Object.values(areas).filter((a) => a !== volumes), changedVolumes], logLevel: 'error', logStream });
});
afterAll(() => t?.close());

function rawRequest(path: string, init: { method?: string; headers?: Record<string, string> | string[]; body?: string | Buffer } = {}): Promise<{ status: number; headers: Record<string, any>; body: any }> {
  return new Promise((resolve, reject) => {
    const url = new URL(t.url);
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: init.method ?? 'GET', headers: init.headers }, (res) => {
      let text = '';
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    if (init.body !== undefined) req.write(init.body);
    req.end();
  });
}

const expectErrorResponse = (body: any) => {
  expect(body).toEqual({ errors: expect.arrayContaining([expect.objectContaining({ reason: expect.any(String) })]) });
  expect(Object.keys(body)).toEqual(['errors']);
};

describe('errors', () => {
  it('an unknown path answers 404 with an ErrorResponse', async () => {
    for (const path of ['/nothing-here', '/volumes/1/nothing', '/']) {
      const answer = await t.as('full').get(path);
      expect(answer.status, path).toBe(404);
      expectErrorResponse(answer.body);
    }
  });

  it('two Authorization headers answer 401 (Node would keep only the first), on a public operation they are ignored', async () => {
    const token = `Bearer ${TOKENS.full.token}`;
    const host = new URL(t.url).host; // headers given as a list get no Host from Node
    const two = await rawRequest('/v4/volumes', { headers: ['Host', host, 'Authorization', token, 'Authorization', 'Bearer someone-else'] });
    expect(two.status, JSON.stringify(two.body)).toBe(401);
    expectErrorResponse(two.body);
    expect(two.body.errors[0].reason).toMatch(/one Authorization header/);
    expect((await rawRequest('/v4/volumes', { headers: ['Host', host, 'Authorization', token] })).status).toBe(200);
    expect((await rawRequest('/v4/regions', { headers: ['Host', host, 'Authorization', token, 'Authorization', 'Bearer x'] })).status).toBe(200);
  });

  it('a method the path lacks answers 405 with Allow', async () => {
    const answer = await t.as('full').request('PATCH', '/volumes/1');
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('DELETE, GET, HEAD, OPTIONS, PUT');
    expectErrorResponse(answer.body);
    expect((await t.as('full').request('DELETE', '/regions')).headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('a body over 1 MiB answers 413', async () => {
    const answer = await t.as('full').post('/volumes', { label: 'x', region: 'us-east', padding: 'x'.repeat(1024 * 1024) });
    expect(answer.status).toBe(413);
    expectErrorResponse(answer.body);
  });

  it('a body that is not JSON, or not in a media type the operation takes, is refused with 400 naming the body', async () => {
    const cases: [string, Record<string, string>, number][] = [
      ['{"label": "x",', { 'content-type': 'application/json' }, 400],
      ['[1, 2]', { 'content-type': 'application/json' }, 400],
      ['"just a string"', { 'content-type': 'application/json' }, 400],
      ['{"__proto__": {"admin": true}, "label": "x", "region": "us-east"}', { 'content-type': 'application/json' }, 400],
      ['label=x', { 'content-type': 'application/x-www-form-urlencoded' }, 400],
      ['{"label":"x","region":"us-east"}', { 'content-type': 'text/plain' }, 400],
      ['{"label":"x","region":"us-east"}', {}, 400],
    ];
    for (const [raw, headers, status] of cases) {
      const answer = await t.as('full').request('POST', '/volumes', { raw, headers });
      expect(answer.status, raw).toBe(status);
      expectErrorResponse(answer.body);
      if (!String(headers['content-type']).includes('json')) expect(answer.body.errors[0].reason, raw).toMatch(/request body is sent as .*which this operation does not take: send application\/json/);
    }
    const empty = await t.as('full').request('POST', '/volumes', { raw: '', headers: { 'content-type': 'application/json' } });
    expect(empty.status).toBe(400);
  });

  it('JSON nested deeper than 64 levels is refused with 400', async () => {
    const deep = `{"label":"x","region":"us-east","tags":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const answer = await t.as('full').request('POST', '/volumes', { raw: deep, headers: { 'content-type': 'application/json' } });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].reason).toMatch(/nested/);
  });

  it('malformed percent-escapes and odd paths never produce a 5xx', async () => {
    for (const path of ['/v4/volumes/%E0%A4%A', '/v4/volumes/%zz', '/v4/images/%', '/v4/tags/%C0%AF', '/v4/volumes?page=%zz', '/v4//volumes', '/v4/volumes/1/../2', '/v4/images/private%2F15%2F16']) {
      const answer = await rawRequest(path, { headers: { authorization: 'Bearer test-full-access' } });
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect(answer.status, path).toBeLessThan(500);
      expectErrorResponse(answer.body);
    }
  });

  it('a malformed HTTP request gets a 400 ErrorResponse', async () => {
    const url = new URL(t.url);
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.write('GET /v4/regions HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n'));
      let data = '';
      socket.on('data', (d) => { data += d; });
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(text).toMatch(/^HTTP\/1\.1 400/);
    expectErrorResponse(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)));
  });

  it('values the store cannot hold are refused with 400 naming the field', async () => {
    const big = await t.as('full').post('/volumes', { label: 'x', region: 'us-east', size: 2 ** 40 });
    expect(big.status).toBe(400);
    expect(big.body.errors[0].field).toBe('size');
    const nul = await t.as('full').post('/volumes', { label: 'a\u0000b', region: 'us-east' });
    expect(nul.status).toBe(400);
    expect(nul.body.errors[0].field).toBe('label');
    const id = await t.as('full').get('/volumes/99999999999999');
    expect(id.status).toBe(400);
    expect(id.body.errors[0].field).toBe('volumeId');
  });

  it('a 400 names every offending field as a dotted path', async () => {
    const answer = await t.as('full').post('/volumes', { label: '', regio: 'x', size: 'big', tags: ['ok-tag', 'no', 7] });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: any) => e.field).sort()).toEqual(['label', 'regio', 'region', 'size', 'tags.1', 'tags.2']);
    for (const error of answer.body.errors) expect(error.reason).toContain(error.field);
  });

  it('an unexpected failure answers 500 with a request id that the log line carries', async () => {
    const created = await t.as('full').post('/volumes', { label: 'explode', region: 'us-east' });
    const answer = await t.as('full').get(`/volumes/${created.body.id}`);
    expect(answer.status).toBe(500);
    expectErrorResponse(answer.body);
    const requestId = answer.headers.get('x-request-id');
    expect(requestId).toBeTruthy();
    expect(answer.body.errors[0].reason).toContain(requestId);
    const line = logLines.find((l) => l.reqId === requestId);
    expect(line).toMatchObject({ level: 50, msg: 'unexpected failure', err: { message: 'a bug in a handler' } });
  });
});

describe('responses', () => {
  it('fields the response schema does not declare never leave the server', async () => {
    const created = await t.as('full').post('/volumes', { label: 'plain', region: 'us-east' });
    const answer = await t.as('full').get(`/volumes/${created.body.id}`);
    expect(answer.status).toBe(200);
    expect(answer.body.internal_note).toBeUndefined();
    expect(answer.body.label).toBe('plain');
  });

  it('every answer carries a request id', async () => {
    const answer = await t.as(null).get('/regions');
    expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('GET /health answers 200 once the server is ready', async () => {
    const answer = await fetch(`${t.url}/health`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ status: 'ok' });
  });
});
