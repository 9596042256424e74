// The static server behind `npm start` and the browser test.
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
  server = await serveStatic({ root, port: 0 });
});

afterAll(async () => {
  await server?.stop();
  rmSync(path.dirname(root), { recursive: true, force: true });
});

// Raw requests, so paths like /../x reach the server as written.
function get(pathname, method = 'GET') {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path: pathname, method }, (res) => {
      let body = '';
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'], body }));
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
