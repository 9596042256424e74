// The server never answers a status its operation does not declare: every operation of the bundle
// is sent odd but legal requests (bodiless with each Content-Type clients send, blank bodies, a
// charset parameter, chunked framing, a duplicated header, a body in a media type it does not
// take) over raw sockets, and each status is checked against the operation's `responses`.
import { deref, operations, parameterExamples } from '@cloudapi/spec/walk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '@cloudapi/spec/bundle';
import { startTestServer, TOKENS } from '../harness/harness.js';
import type { TestServer } from '../harness/harness.js';
import { rawExchange } from '../harness/raw-http.js';

let t: TestServer;
beforeAll(async () => { t = await startTestServer({ name: 'statuses' }); });
afterAll(() => t?.close());

const bundle = loadBundle();
const ops = [...operations(bundle)];

/** The operation's URL with each path parameter set to its first example (or 1). */
function urlOf(op: (typeof ops)[number]): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_all: string, name: string) => {
    const parameter = op.parameters.find((p: any) => p.in === 'path' && p.name === name);
    const [value] = parameter ? parameterExamples(bundle, parameter) : [];
    return encodeURIComponent(String(value ?? 1));
  });
  return `/v4${path}`;
}

interface Variant {
  name: string;
  headers: string[];
  body?: string;
}

const chunk = (text: string) => (text ? `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n` : '') + '0\r\n\r\n';

/** What clients send, odd but legal. */
const VARIANTS: Variant[] = [
  { name: 'no body, no Content-Type', headers: [] },
  { name: 'no body, a form Content-Type (what @linode/api-v4 sends)', headers: ['Content-Type: application/x-www-form-urlencoded', 'Content-Length: 0'] },
  { name: 'no body, text/plain', headers: ['Content-Type: text/plain', 'Content-Length: 0'] },
  { name: 'no body, JSON with a charset', headers: ['Content-Type: application/json; charset=utf-8', 'Content-Length: 0'] },
  { name: 'a blank JSON body', headers: ['Content-Type: application/json'], body: ' \r\n\t ' },
  { name: 'an empty object, JSON with a charset in capitals', headers: ['Content-Type: application/json; charset=UTF-8'], body: '{}' },
  { name: 'a form body', headers: ['Content-Type: application/x-www-form-urlencoded'], body: 'label=x&region=us-east' },
  { name: 'a text body', headers: ['Content-Type: text/plain'], body: 'hello' },
  { name: 'a JSON body without Content-Type', headers: [], body: '{}' },
  { name: 'an empty chunked body with a form Content-Type', headers: ['Content-Type: application/x-www-form-urlencoded', 'Transfer-Encoding: chunked'], body: chunk('') },
  { name: 'a chunked JSON body', headers: ['Content-Type: application/json', 'Transfer-Encoding: chunked'], body: chunk('{}') },
  { name: 'Content-Type twice', headers: ['Content-Type: application/json', 'Content-Type: application/json'], body: '{}' },
  { name: 'Accept twice', headers: ['Accept: application/json', 'Accept: */*'] },
];

function request(method: string, url: string, variant: Variant): Buffer {
  const host = new URL(t.url).host;
  const body = variant.body ?? '';
  const framed = variant.headers.some((h) => /^(content-length|transfer-encoding):/i.test(h));
  const lines = [`${method.toUpperCase()} ${url} HTTP/1.1`, `Host: ${host}`, `Authorization: Bearer ${TOKENS.full.token}`, ...variant.headers, ...(body && !framed ? [`Content-Length: ${Buffer.byteLength(body)}`] : []), 'Connection: close'];
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`);
}

describe('every operation answers only statuses it declares', () => {
  it(`${ops.length} operations × ${VARIANTS.length} odd requests`, async () => {
    expect(ops.length, 'the bundle has operations').toBeGreaterThan(0);
    const undeclared: string[] = [];
    const seen = new Map<number, number>();
    const work = ops.flatMap((op) => VARIANTS.map((variant) => ({ op, variant })));
    // Eight connections at a time: the order of the requests does not matter here.
    const send = async () => {
      for (let next = work.shift(); next; next = work.shift()) {
        const { op, variant } = next;
        const declared = new Set(Object.keys(deref(bundle, op.operation.responses)[0]));
        const url = urlOf(op);
        const { answers } = await rawExchange(t.url, [request(op.method, url, variant)], { timeoutMs: 5000 });
        const status = answers[0]?.status;
        seen.set(status ?? 0, (seen.get(status ?? 0) ?? 0) + 1);
        if (!status || !(declared.has(String(status)) || declared.has('default'))) {
          undeclared.push(`${op.operation.operationId} (${op.method.toUpperCase()} ${url}) with ${variant.name}: ${status ?? 'no answer'} ${answers[0]?.body.slice(0, 160) ?? ''}`);
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, send));
    console.log(`[statuses] ${ops.length * VARIANTS.length} requests: ${[...seen].sort().map(([s, n]) => `${s}×${n}`).join(', ')}`);
    expect(undeclared).toEqual([]);
  });

  it('a bodiless action sent as a form (what @linode/api-v4 sends) is carried out', async () => {
    const ticket = (await t.as('full').post('/support/tickets', { summary: 'Form close', description: 'Closed by a client that sends forms.' })).body;
    const { answers } = await rawExchange(t.url, [request('POST', `/v4/support/tickets/${ticket.id}/close`, VARIANTS[1]!)]);
    expect(answers[0]?.status, answers[0]?.body).toBe(200);
    expect((await t.as('full').get(`/support/tickets/${ticket.id}`)).body.status).toBe('closed');
  });
});
