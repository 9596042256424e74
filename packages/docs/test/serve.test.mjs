// The static server behind `npm start` and the browser tests: files, routes, and the boundary every
// request passes (the Host rule, the request target, the method, errors inside a route).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { resolveRequestPath, serveStatic } from '../src/serve.mjs';

let root;
let server;

beforeAll(async () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'cloudapi-serve-'));
  root = path.join(scratch, 'site');
  mkdirSync(path.join(root, 'sub'), { recursive: true });
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>home</title>');
  writeFileSync(path.join(root, 'openapi.yaml'), 'openapi: 3.1.0\n');
  writeFileSync(path.join(root, 'sub', 'index.html'), 'sub');
  writeFileSync(path.join(scratch, 'secret.txt'), 'outside the site');
  server = await serveStatic({
    root, port: 0, allowedHosts: ['docs.test'], log: (line) => logged.push(line),
    json: { '/data.json': () => ({ n: 1 }) },
    routes: { '/boom': () => { throw new Error('route exploded'); } },
  });
});
const logged = [];

afterAll(async () => {
  await server?.stop();
  rmSync(path.dirname(root), { recursive: true, force: true });
});

// Raw requests, so paths like /../x reach the server as written.
function get(pathname, method = 'GET', headers = {}) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path: pathname, method, headers }, (res) => {
      let body = '';
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'], headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('serveStatic', () => {
  it('listens on 127.0.0.1 and serves index.html for /', async () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
    const home = await get('/');
    expect(home).toMatchObject({ status: 200, type: 'text/html; charset=utf-8' });
    expect(home.body).toContain('<title>home</title>');
    expect((await get('/sub/')).body).toBe('sub');
  });

  it('serves files with their type, and HEAD without a body', async () => {
    expect(await get('/openapi.yaml')).toMatchObject({ status: 200, type: 'application/yaml; charset=utf-8', body: 'openapi: 3.1.0\n' });
    expect(await get('/openapi.yaml?download=1')).toMatchObject({ status: 200 });
    expect(await get('/openapi.yaml', 'HEAD')).toMatchObject({ status: 200, body: '' });
  });

  it('answers 404 for missing files and anything outside its folder, 405 for other methods', async () => {
    expect((await get('/missing.html')).status).toBe(404);
    for (const escape of ['/../secret.txt', '/%2e%2e/secret.txt', '/sub/..%2f..%2fsecret.txt', '/%00']) {
      const answer = await get(escape);
      expect(answer.status, escape).toBe(404);
      expect(answer.body, escape).not.toContain('outside the site');
    }
    expect((await get('/', 'POST')).status).toBe(405);
    expect(resolveRequestPath(root, '/../secret.txt')).toBe(path.join(root, 'secret.txt'));
    expect(resolveRequestPath(root, '/%E0%A4%A')).toBeNull();
  });

  it('answers its routes, JSON and code, before the files', async () => {
    expect(await get('/data.json')).toMatchObject({ status: 200, type: 'application/json; charset=utf-8', body: '{"n":1}\n' });
    expect(await get('/data.json?x=1', 'HEAD')).toMatchObject({ status: 200, body: '' });
  });

  it('answers only its allowed hosts: IP addresses, localhost, *.localhost and the names it is given', async () => {
    for (const host of [`127.0.0.1:${server.port}`, 'localhost', 'docs.localhost:1', 'DOCS.test']) expect((await get('/', 'GET', { host })).status, host).toBe(200);
    const refused = await get('/', 'GET', { host: 'evil.example' });
    expect(refused).toMatchObject({ status: 403, type: 'text/plain; charset=utf-8' });
    expect(refused.body).toMatch(/"evil\.example" is not served here.*ALLOWED_HOSTS=evil\.example/);
  });

  it('reads // as a path, never as a host; refuses a target that is no path and CONNECT, saying why', async () => {
    expect((await get('//')).body).toContain('<title>home</title>');
    expect((await get('//a:b@')).status).toBe(404);
    const star = await get('*', 'OPTIONS');
    expect(star).toMatchObject({ status: 400, body: expect.stringMatching(/"\*" is not a path/) });
    const tunnel = await new Promise((resolve) => {
      const socket = connect(server.port, '127.0.0.1', () => socket.write(`CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`));
      let data = '';
      socket.on('data', (d) => { data += d; });
      socket.on('close', () => resolve(data));
    });
    expect(tunnel).toMatch(/^HTTP\/1\.1 405 Method Not Allowed[\s\S]*CONNECT is not served here/);
  });

  it('answers a route that throws with a 500, logs it, and keeps serving', async () => {
    expect(await get('/boom')).toMatchObject({ status: 500, body: expect.stringMatching(/failed on this request/) });
    expect(logged.join('\n')).toMatch(/the docs server failed on GET \/boom: Error: route exploded/);
    expect((await get('/')).status).toBe(200);
  });

  it('sends nosniff and a policy that keeps other sites from framing or embedding the pages', async () => {
    const { headers } = await get('/');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['cross-origin-resource-policy']).toBe('same-origin');
    expect((await get('/missing')).headers['x-content-type-options']).toBe('nosniff');
  });

  it('says which port is taken, and stops listening on stop()', async () => {
    const other = await serveStatic({ root, port: 0 });
    await expect(serveStatic({ root, port: other.port })).rejects.toThrow(`port ${other.port} on 127.0.0.1 is in use: set DOCS_PORT`);
    expect((await fetch(other.url)).status).toBe(200);
    await other.stop();
    const refused = await new Promise((resolve) => {
      const socket = connect(other.port, '127.0.0.1');
      socket.on('connect', () => { socket.destroy(); resolve(false); });
      socket.on('error', () => resolve(true));
    });
    expect(refused).toBe(true);
  });
});
