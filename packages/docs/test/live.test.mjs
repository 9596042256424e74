// The live channel of `npm run dev` (src/live.mjs) over real HTTP: the page it serves carries the
// live client and hands Redoc's init to it; the events tell every open page of a new docs copy
// and of the lint findings; and nobody but a page of this origin, reached by a trusted Host (the
// docs server's boundary), hears any of it. The page itself in Chromium is packages/dev/test/live.test.mjs.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLiveChannel, liveRefusal, livePage, REDOC_START } from '../src/live.mjs';
import { docsDistDir, serveStatic } from '../src/serve.mjs';

let root;
let live;
let server;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'cloudapi-live-'));
  writeFileSync(path.join(root, 'index.html'), `<!doctype html><html><body><div id="redoc"></div><script type="module">\n      ${REDOC_START}\n</script></body></html>`);
  live = createLiveChannel({ root });
  server = await serveStatic({ root, port: 0, routes: live.routes });
});

afterAll(async () => {
  live?.close();
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

/** A raw GET with the headers given (Host included), resolving once the headers are in. */
function get(pathname, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path: pathname, headers: { host: `127.0.0.1:${server.port}`, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      const waiters = [];
      res.on('data', (d) => {
        body += d;
        for (const w of waiters.splice(0)) w();
      });
      res.on('end', () => { for (const w of waiters.splice(0)) w(); });
      /** Resolves once the body so far matches `pattern`. */
      const until = (pattern) => new Promise((ok) => {
        const check = () => (pattern.test(body) ? ok(body) : waiters.push(check));
        check();
      });
      resolve({ status: res.statusCode, headers: res.headers, body: () => body, until, close: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}
const fullBody = async (response) => { await new Promise((r) => setTimeout(r, 50)); return response.body(); };

describe('the page the live channel serves', () => {
  it('is the built page with the live client and Redoc handed over to it, and says which docs it holds', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    const html = await page.until(/<\/html>/);
    expect(html).toContain(`${REDOC_START}\n      window.cloudapiRedoc = { init, options: __redoc_options };`);
    const settings = JSON.parse(/<script type="application\/json" id="cloudapi-live">(.*?)<\/script>/.exec(html)[1]);
    expect(settings).toEqual({ version: expect.stringMatching(/^[0-9a-f]{8}:built$/), events: '_live/events', docs: '_live/docs.json' });
    expect(html).toContain('new EventSource(settings.events)');
    expect((await get('/index.html')).status).toBe(200);
  });

  it('hands Redoc over in the real built page (Redocly still starts Redoc with that line)', () => {
    const built = readFileSync(path.join(docsDistDir, 'index.html'), 'utf8');
    expect(built).toContain(REDOC_START);
    expect(built).not.toContain('cloudapi-live'); // the built page itself stays as it was
    expect(livePage(built, { version: 'v' })).toContain('window.cloudapiRedoc = { init, options: __redoc_options };');
  });

  it('says in the page why it cannot be live when the line that starts Redoc is missing', () => {
    const html = livePage('<html><body></body></html>', { version: 'v' });
    expect(JSON.parse(/id="cloudapi-live">(.*?)<\/script>/.exec(html)[1]).error).toMatch(/the line that starts Redoc was not found/);
  });
});

describe('the events and the docs copy', () => {
  it('tell an open page the current state, then each new docs copy and the lint findings', async () => {
    const events = await get('/_live/events');
    expect(events.status).toBe(200);
    expect(events.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    await events.until(/event: problems\ndata: \{"findings":\[\],"bundle":null\}\n\n/);
    expect(events.body()).toMatch(/event: docs\ndata: \{"version":"[0-9a-f]{8}:none"\}/);
    expect(live.openPages()).toBe(1);
    const docs = JSON.stringify({ definition: { openapi: '3.1.0', info: { title: 'T</script>', version: '1' } }, tryIt: { basePath: '/v1', operations: [] } });
    const version = live.publishDocs(docs);
    await events.until(new RegExp(`event: docs\\ndata: \\{"version":"${version}"\\}`));
    const copy = await get('/_live/docs.json');
    expect(copy.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(await fullBody(copy))).toEqual({ version, docs: JSON.parse(docs) });
    // A finding whose text is HTML goes out as JSON text; the page writes it as text.
    live.showProblems({ findings: [{ file: 'spec/a.yaml', line: 3, column: 1, severity: 'error', rule: 'r', message: '<img src=x onerror=alert(1)>\nsecond line' }], bundle: null });
    await events.until(/"message":"<img src=x onerror=alert\(1\)>\\nsecond line"\}\],"bundle":null\}\n\n/);
    events.close();
    await expect.poll(() => live.openPages()).toBe(0);
  });

  it('serves a page opened later the version it holds, so that it renders the newer copy', async () => {
    const version = live.publishDocs('{"definition":{},"tryIt":{"operations":[]}}', { pageHasIt: true });
    const html = await (await get('/')).until(/<\/html>/);
    expect(JSON.parse(/id="cloudapi-live">(.*?)<\/script>/.exec(html)[1]).version).toBe(version);
    const newer = live.publishDocs('{"definition":{},"tryIt":{"operations":[]}}');
    const later = await (await get('/')).until(/<\/html>/);
    expect(JSON.parse(/id="cloudapi-live">(.*?)<\/script>/.exec(later)[1]).version).toBe(version);
    live.pageBuilt(newer);
    const rebuilt = await (await get('/')).until(/<\/html>/);
    expect(JSON.parse(/id="cloudapi-live">(.*?)<\/script>/.exec(rebuilt)[1]).version).toBe(newer);
  });
});

describe('who may listen', () => {
  const refused = async (pathname, headers) => {
    const response = await get(pathname, headers);
    const body = await fullBody(response);
    return { status: response.status, body };
  };

  // The Host rule is the docs server's boundary (serve.mjs): the live routes sit behind it.
  it.each([
    ['a foreign Host (DNS rebinding)', { host: 'attacker.example:80' }, 403],
    ['a foreign Host with this port', { host: 'attacker.example' }, 403],
    ['a Host that hides another name', { host: 'attacker.example@127.0.0.1' }, 400],
  ])('refuses %s on every route, with nothing of the docs', async (_, headers, expected) => {
    for (const pathname of ['/', '/index.html', '/_live/events', '/_live/docs.json']) {
      const { status, body } = await refused(pathname, headers);
      expect(status, pathname).toBe(expected);
      expect(body).toMatch(/^The Host (header )?"attacker\.example[^"]*" is not/);
      expect(body).not.toMatch(/cloudapi|version/);
    }
  });

  it('refuses a page of another origin, or a request another site made, the events and the docs copy', async () => {
    for (const pathname of ['/_live/events', '/_live/docs.json']) {
      expect(await refused(pathname, { origin: 'http://attacker.example' }), pathname).toEqual({ status: 403, body: 'Refused: the page is on another origin.\n' });
      expect((await refused(pathname, { origin: `http://127.0.0.1:${server.port + 1}` })).status).toBe(403);
      expect(await refused(pathname, { 'sec-fetch-site': 'cross-site' })).toEqual({ status: 403, body: 'Refused: the request comes from another site.\n' });
      expect((await refused(pathname, { 'sec-fetch-site': 'same-site' })).status).toBe(403);
    }
    // A navigation from another site may open the page itself, which then listens as this origin.
    expect((await get('/', { 'sec-fetch-site': 'cross-site' })).status).toBe(200);
  });

  it('answers a page of this origin, by any trusted name, and a client that is no browser', async () => {
    const port = server.port;
    for (const headers of [
      { origin: `http://127.0.0.1:${port}`, 'sec-fetch-site': 'same-origin' },
      { host: `localhost:${port}`, origin: `http://localhost:${port}` },
      { host: `docs.localhost:${port}` },
      { host: `[::1]:${port}` },
      {},
    ]) {
      const response = await get('/_live/docs.json', headers);
      expect(response.status, JSON.stringify(headers)).toBe(200);
    }
  });

  it('judges the origin by one clear rule, against the origin the Host names', () => {
    const ask = (headers) => liveRefusal({ headers });
    expect(ask({ host: '127.0.0.1:8080' })).toBeNull();
    expect(ask({ host: 'LOCALHOST:8080', origin: 'http://localhost:8080' })).toBeNull();
    expect(ask({ host: '[::1]:8080', origin: 'http://[::1]:8080', 'sec-fetch-site': 'none' })).toBeNull();
    expect(ask({})).toMatch(/Host/);
    expect(ask({ host: 'attacker.example@127.0.0.1' })).toMatch(/Host/);
    expect(ask({ host: '127.0.0.1:8080', origin: 'null' })).toMatch(/another origin/);
    expect(ask({ host: '127.0.0.1:8080', origin: 'https://127.0.0.1:8080' })).toMatch(/another origin/);
    expect(ask({ host: '127.0.0.1:8080', origin: 'http://127.0.0.1' })).toMatch(/another origin/);
    expect(ask({ host: '127.0.0.1:8080', 'sec-fetch-site': 'same-site' })).toMatch(/another site/);
  });
});
