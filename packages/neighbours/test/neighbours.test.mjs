// The hostile-neighbour suite (issue 35): one `npm start -- --no-build` on free ports, and what
// anything else on the machine can send to its three ports: raw bytes from a stray client, and
// requests from a real Chromium page of another origin, a page reached through a DNS-rebinding
// name (Chromium's --host-resolver-rules maps evil.example to 127.0.0.1), a sandboxed frame.
//
// After every case: npm start still runs, all three still answer, nothing answered a 5xx, and
// every refusal says why (the spec's ErrorResponse with a reason on the mock and the server,
// plain text on the docs). At the end, npm start's output shows no part failed or restarted.
import { createServer } from 'node:http';
import { chromium } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { CHROMIUM_ARGS } from '../../../test-support/chromium.mjs';
import { rawExchange as exchange } from '../../server/test/harness/raw-http.ts';
import { startAll } from './support/start.mjs';

let all;
const parts = {};

beforeAll(async () => {
  all = await startAll();
  for (const [name, url] of [['docs', all.docs], ['mock', all.mock], ['server', all.server]]) parts[name] = { name, url, port: Number(new URL(url).port) };
});
afterAll(async () => {
  const stopped = await all?.stop();
  expect(stopped).toEqual({ code: 0, signal: null });
});

/** Each part answers a request of its own within 2 s, and npm start still runs. */
async function allAnswer() {
  expect(all.alive(), `npm start exited:\n${all.output().slice(-3000)}`).toBe(true);
  for (const [name, url] of [['docs', `${all.docs}/`], ['mock', `${all.mock}/regions`], ['server', `${new URL(all.server).origin}/health`]]) {
    const answer = await fetch(url, { signal: AbortSignal.timeout(2000) }).catch((error) => ({ status: `no answer (${error.message})` }));
    expect({ name, status: answer.status }).toEqual({ name, status: 200 });
  }
}

/** A refusal says why: an ErrorResponse with a reason on the mock and the server, text on the docs. */
function explained(part, answer, label) {
  expect(answer.status, `${label}: ${answer.body.slice(0, 300)}`).toBeLessThan(500);
  if (answer.status < 400) return;
  if (part === 'docs') {
    expect(answer.body.trim().length, `${label}: a refusal without a reason`).toBeGreaterThan(10);
    return;
  }
  let body;
  expect(() => { body = JSON.parse(answer.body); }, `${label}: not JSON: ${answer.body.slice(0, 200)}`).not.toThrow();
  expect(Object.keys(body), label).toEqual(['errors']);
  expect(body.errors[0].reason.length, label).toBeGreaterThan(10);
}

afterEach(allAnswer);

// ---- Raw bytes on each port -------------------------------------------------------------------

/** Bytes written as they are on one new connection to 127.0.0.1:`port`, the answers read back. */
const rawExchange = (port, bytes, options) => exchange(`http://127.0.0.1:${port}`, [bytes], options);

const request = (target, { method = 'GET', host = (port) => `127.0.0.1:${port}`, headers = [], body = '', version = '1.1' } = {}) => (port) => {
  const lines = [`${method} ${target} HTTP/${version}`, ...(host ? [`Host: ${host(port)}`] : []), ...headers, ...(body ? [`Content-Length: ${Buffer.byteLength(body)}`] : [])];
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), Buffer.from(body)]);
};

// [name, bytes for a port, expected status (or a predicate), options]
const RAW_CASES = [
  ...['//', '///', '//a:b@', '//%', '//[::1', '//evil.example/x', '/%', '/%zz/..%2f', '/v4//regions'].map((target) => [`GET ${target}`, request(target), (s) => s >= 400 || s === 200]),
  ['an absolute-form target naming another host', request('http://evil.example/v4/regions'), 400],
  ['an absolute-form target naming this host (served as its path)', (port) => request(`http://127.0.0.1:${port}/v4/regions`)(port), (s) => s === 200 || s === 404],
  ['the asterisk-form GET *', request('*'), 400],
  ['OPTIONS *', request('*', { method: 'OPTIONS' }), 400],
  ['CONNECT to another host', (port) => `CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`, 405],
  ['Host: evil.example (DNS rebinding)', request('/', { host: () => 'evil.example' }), 403],
  ['Host: evil.example with the port', request('/v4/regions', { host: (port) => `evil.example:${port}` }), 403],
  ['Host: localhost.evil.example', request('/', { host: () => 'localhost.evil.example' }), 403],
  ['no Host (HTTP/1.1)', request('/', { host: null }), 400],
  ['no Host (HTTP/1.0)', request('/', { host: null, version: '1.0' }), 400],
  ['two Host headers', request('/', { headers: ['Host: evil.example'] }), 400],
  ['a Host that is no host name', request('/', { host: () => 'a b@c' }), 400],
  ['the unknown method FOO', request('/', { method: 'FOO' }), 400],
  ['PROPFIND', request('/v4/regions', { method: 'PROPFIND' }), (s) => s === 405 || s === 404],
  ['TRACE', request('/', { method: 'TRACE' }), (s) => s === 405 || s === 404],
  ['a header of 64 KiB', request('/', { headers: [`X-Big: ${'a'.repeat(64 * 1024)}`] }), 431],
  ['a URL of 100 KiB', request(`/v4/regions?x=${'a'.repeat(100 * 1024)}`), 431],
  ['3,000 headers', request('/', { headers: Array.from({ length: 3000 }, (_, i) => `X-H${i}: v`) }), (s) => s < 500],
  ['a NUL in the target', request('/a\u0000b'), 400],
  ['HTTP/9.9', request('/', { version: '9.9' }), (s) => s >= 400],
  ['Content-Length and Transfer-Encoding both', request('/', { method: 'POST', headers: ['Transfer-Encoding: chunked', 'Content-Length: 4'], body: '0\r\n\r\n' }), 400],
  ['garbage bytes', () => Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 13, 10, 13, 10]), 400],
  ['a TLS ClientHello on the plain port', () => Buffer.from('16030100a5010000a10303', 'hex'), 400],
  ['Upgrade: websocket', request('/', { headers: ['Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=='] }), (s) => s < 500],
  ['a CORS preflight from a foreign origin', request('/v4/volumes', { method: 'OPTIONS', headers: ['Origin: http://evil.example', 'Access-Control-Request-Method: POST'] }), (s) => s === 403 || s === 405],
  ['a CORS preflight from the null origin', request('/v4/volumes', { method: 'OPTIONS', headers: ['Origin: null', 'Access-Control-Request-Method: DELETE'] }), (s) => s === 403 || s === 405],
  ['a Private Network Access preflight from a public page', request('/v4/regions', { method: 'OPTIONS', headers: ['Origin: https://public.example', 'Access-Control-Request-Method: GET', 'Access-Control-Request-Private-Network: true'] }), (s) => s === 403 || s === 405],
];

describe.each(['docs', 'mock', 'server'])('raw bytes to the %s port', (part) => {
  it.each(RAW_CASES.map(([name, bytes, expected]) => ({ name, bytes, expected })))('$name', async ({ name, bytes, expected }) => {
    const { port } = parts[part];
    const exchange = await rawExchange(port, bytes(port));
    expect(exchange.answers.length, `${name}: no answer (closed: ${exchange.closed})`).toBe(1);
    const [answer] = exchange.answers;
    explained(part, answer, name);
    if (typeof expected === 'number') expect({ name, status: answer.status }).toEqual({ name, status: expected });
    else expect(expected(answer.status), `${name}: ${answer.status} ${answer.body.slice(0, 200)}`).toBe(true);
    if (answer.status === 403 && /Host/.test(name)) expect(answer.body).toMatch(/ALLOWED_HOSTS=/);
  });

  it('a good request pipelined with GET // gets both answers, in order', async () => {
    const { port } = parts[part];
    const good = part === 'docs' ? '/try-it/targets.json' : part === 'mock' ? '/v4/regions' : '/health';
    const exchange = await rawExchange(port, Buffer.concat([request(good)(port), request('//')(port), request(good)(port)]), { answers: 3 });
    expect(exchange.answers.map((a) => a.status)).toEqual([200, part === 'docs' ? 200 : 404, 200]);
  });

  it('a 5 MB body written at once is refused with an answer the client reads', async () => {
    const { port } = parts[part];
    const body = JSON.stringify({ label: 'big', region: 'us-east', padding: 'x'.repeat(5_000_000) });
    const bytes = request(part === 'docs' ? '/' : '/v4/volumes', { method: 'POST', headers: ['Content-Type: application/json', `Authorization: Bearer ${all.token}`], body })(port);
    for (let i = 0; i < 3; i++) {
      const exchange = await rawExchange(port, bytes, { timeoutMs: 10_000 });
      expect(exchange.answers.map((a) => a.status), `attempt ${i}: closed ${exchange.closed}`).toEqual([part === 'docs' ? 405 : 413]);
      explained(part, exchange.answers[0], 'the 5 MB body');
    }
  });
});

// ---- A real browser -----------------------------------------------------------------------------

describe('a real Chromium page', () => {
  let browser;
  let attacker;
  let attackerOrigin;
  const resolver = '--host-resolver-rules=MAP evil.example 127.0.0.1';

  beforeAll(async () => {
    const found = inject('chromium');
    if (!found.path) throw new Error(found.error);
    browser = await chromium.launch({ executablePath: found.path, headless: true, args: [...CHROMIUM_ARGS, resolver] });
    // The attacker's own site: another origin (another port) on the same machine.
    attacker = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>attacker</title><p>a page of another origin</p>');
    });
    await new Promise((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    attackerOrigin = `http://127.0.0.1:${attacker.address().port}`;
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (attacker ? attacker.close(resolve) : resolve()));
  });

  const pageAt = async (url) => {
    const page = await browser.newPage();
    const response = await page.goto(url);
    return { page, response };
  };

  it.each(['docs', 'mock', 'server'])('a DNS-rebinding name reaching the %s port gets the 403 that says how to allow it, from the page and from its scripts', async (part) => {
    const { port } = parts[part];
    const path = part === 'docs' ? '/openapi.json' : '/v4/regions';
    const { page, response } = await pageAt(`http://evil.example:${port}${path}`);
    try {
      expect(response.status()).toBe(403);
      expect(await page.textContent('body')).toMatch(/evil\.example:\d+\\?" is not served here.*ALLOWED_HOSTS=evil\.example/);
      // A script of that page reading its "own" origin gets the same refusal.
      const seen = await page.evaluate(async (p) => { const r = await fetch(p); return { status: r.status, text: await r.text() }; }, path);
      expect(seen.status).toBe(403);
    } finally {
      await page.close();
    }
  });

  it('a page of another origin cannot stop npm start with crafted image links', async () => {
    const { page } = await pageAt(attackerOrigin);
    try {
      const targets = ['//', '///', '//a:b@', '//%', '//[::1', '/%', '/..%2f..%2fetc/passwd'];
      const urls = Object.values(parts).flatMap(({ port }) => targets.map((target) => `http://127.0.0.1:${port}${target}`));
      const settled = await page.evaluate((list) => Promise.all(list.map((src) => new Promise((resolve) => {
        const img = new Image();
        img.onload = () => resolve('load');
        img.onerror = () => resolve('error');
        img.src = src;
      }))), urls);
      expect(settled).toHaveLength(urls.length);
    } finally {
      await page.close();
    }
  });

  it('a page of another origin reads nothing from the three, its refused calls are logged, and a no-cors write does nothing', async () => {
    const before = await (await fetch(`${all.server}/volumes`, { headers: { authorization: `Bearer ${all.token}` } })).json();
    const { page } = await pageAt(attackerOrigin);
    try {
      const outcome = await page.evaluate(async ({ docs, mock, server }) => {
        const attempt = (url, init) => fetch(url, init).then((r) => `read ${r.status}`, (error) => `blocked (${error.name})`);
        return {
          docs: await attempt(`${docs}/openapi.json`),
          mock: await attempt(`${mock}/regions`),
          server: await attempt(`${server}/regions`),
          serverWithToken: await attempt(`${server}/volumes`, { headers: { authorization: 'Bearer guessed' } }),
          noCorsWrite: await fetch(`${server}/volumes`, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{"label":"csrf","region":"us-east"}' }).then((r) => r.type),
        };
      }, { docs: all.docs, mock: all.mock, server: all.server });
      expect(outcome).toEqual({ docs: 'blocked (TypeError)', mock: 'blocked (TypeError)', server: 'blocked (TypeError)', serverWithToken: 'blocked (TypeError)', noCorsWrite: 'opaque' });
    } finally {
      await page.close();
    }
    const after = await (await fetch(`${all.server}/volumes`, { headers: { authorization: `Bearer ${all.token}` } })).json();
    expect(after.results).toBe(before.results);
    // The browser hid every refusal from the page; the mock's and the server's logs say it.
    await expect.poll(() => all.output()).toMatch(new RegExp(`✖ CORS: The origin ${attackerOrigin.replace(/\./g, '\\.')} is not trusted`));
    await expect.poll(() => all.output()).toMatch(new RegExp(`"origin":"${attackerOrigin.replace(/\./g, '\\.')}".*CORS: The origin`));
  });

  it('a sandboxed frame (the null origin) reads nothing', async () => {
    const { page } = await pageAt(attackerOrigin);
    try {
      const result = await page.evaluate((mock) => new Promise((resolve) => {
        window.addEventListener('message', (event) => resolve(event.data));
        const frame = document.createElement('iframe');
        frame.sandbox = 'allow-scripts';
        frame.srcdoc = `<script>fetch(${JSON.stringify(`${mock}/regions`)}).then((r) => parent.postMessage('read ' + r.status, '*'), (e) => parent.postMessage('blocked ' + e.name, '*'));</script>`;
        document.body.append(frame);
      }), all.mock);
      expect(result).toBe('blocked TypeError');
    } finally {
      await page.close();
    }
  });

  it('the docs\' own origin, and its localhost twin, may call the mock and the server (the control: a call that is allowed is seen as such)', async () => {
    for (const origin of [all.docs, all.docs.replace('127.0.0.1', 'localhost')]) {
      const { page } = await pageAt(`${origin}/openapi.json`);
      try {
        const outcome = await page.evaluate(async ({ mock, server, token }) => ({
          mock: (await fetch(`${mock}/regions`)).status,
          server: (await fetch(`${server}/volumes`, { headers: { authorization: `Bearer ${token}` } })).status,
        }), { mock: all.mock, server: all.server, token: all.token });
        expect({ origin, ...outcome }).toEqual({ origin, mock: 200, server: 200 });
      } finally {
        await page.close();
      }
    }
  });
});

describe('npm start after all of it', () => {
  it('never failed, restarted or answered a 5xx in any part', () => {
    const output = all.output();
    expect(output).not.toMatch(/restarting|failed on|front layer failed|unexpected failure|npm start failed/);
  });
});
