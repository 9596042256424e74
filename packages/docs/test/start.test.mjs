// `npm start` after its build: the root script serves the docs, the mock and the reference server
// on the ports it is given, prints their URLs and the server's token, trusts the docs' origin (on
// the port they serve) for CORS, starts a part that dies again, and Ctrl-C (SIGINT) stops all
// three. Run with --no-build: Turbo has built everything before this test runs. With --watch
// (`npm run dev`), the docs server also carries the designer loop's live channel, behind the same
// Host rule (the page itself in Chromium: packages/dev/test/live.test.mjs).
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { createServer, connect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@cloudapi/mock';

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const startScript = path.join(rootDir, 'scripts', 'start.mjs');

// The reference server keeps its data in a temporary folder, never the repository's .data/.
function start(env, args = []) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cloudapi-start-'));
  const child = spawn(process.execPath, [startScript, '--no-build', ...args], {
    cwd: rootDir, env: { ...process.env, HOST: '127.0.0.1', SERVER_PORT: '0', DATA_DIR: dataDir, TOKENS_FILE: '', DATABASE_URL: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => { output += d; });
  child.stderr.on('data', (d) => { output += d; });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  // Its data goes with it (npm start stops the server before it exits).
  exited.then(() => rmSync(dataDir, { recursive: true, force: true }));
  const waitFor = (pattern, ms = 60_000) => new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const match = pattern.exec(output);
      if (match) { clearInterval(timer); clearTimeout(limit); resolve(match); }
    }, 50);
    const limit = setTimeout(() => { clearInterval(timer); reject(new Error(`no ${pattern} within ${ms} ms:\n${output}`)); }, ms);
    exited.then(() => setTimeout(() => { if (!pattern.exec(output)) { clearInterval(timer); clearTimeout(limit); reject(new Error(`exited before ${pattern}:\n${output}`)); } }, 100));
  });
  return { child, exited, waitFor, output: () => output };
}

/** A GET with these headers (Host included): the status and the body's first chunk. */
function firstChunk(url, headers) {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      res.setEncoding('utf8');
      res.once('data', (chunk) => { resolve({ status: res.statusCode, type: res.headers['content-type'], text: chunk }); req.destroy(); });
    });
    req.on('error', reject);
    req.end();
  });
}

function refused(port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => { socket.destroy(); resolve(false); });
    socket.on('error', () => resolve(true));
  });
}

describe('npm start (scripts/start.mjs)', () => {
  it('serves the docs, the mock and the server, prints their URLs and the token, and stops all three on SIGINT', async () => {
    const [docsPort, mockPort, serverPort] = [await freePort(), await freePort(), await freePort()];
    const run = start({ DOCS_PORT: String(docsPort), PORT: String(mockPort), SERVER_PORT: String(serverPort) });
    try {
      const [, docsUrl] = await run.waitFor(/docs {2}(http:\/\/\S+)/);
      const [, mockUrl] = await run.waitFor(/mock {2}(http:\/\/\S+)/);
      const [, serverUrl] = await run.waitFor(/server {2}(http:\/\/\S+)/);
      const [, token] = await run.waitFor(/token: ([0-9a-f]+)/);
      expect(serverUrl).toBe(`http://127.0.0.1:${serverPort}/v4`);
      const volumes = await fetch(`${serverUrl}/volumes`, { headers: { authorization: `Bearer ${token}` } });
      expect(volumes.status).toBe(200);
      expect((await fetch(`${serverUrl}/volumes`)).status).toBe(401);
      expect(docsUrl).toBe(`http://127.0.0.1:${docsPort}/`);
      expect(mockUrl).toBe(`http://127.0.0.1:${mockPort}/v4`);
      const page = await fetch(docsUrl);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<title>Cloud Account Management API');
      expect((await fetch(`${docsUrl}openapi.json`)).status).toBe(200);
      const regions = await fetch(`${mockUrl}/regions`);
      expect(regions.status).toBe(200);
      expect((await regions.json()).data.length).toBeGreaterThan(0);
      // The page's "Try it" console learns where the mock and the server are, and both trust its origin.
      expect(await (await fetch(`${docsUrl}try-it/targets.json`)).json()).toEqual({ targets: [{ name: 'Mock', url: mockUrl }, { name: 'Reference server', url: serverUrl }] });
      // Its localhost twin too; the docs' default port (8080), where they do not run, is not trusted.
      const preflight = (target, origin) => fetch(`${target}/volumes`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
      for (const target of [mockUrl, serverUrl]) {
        for (const origin of [docsUrl.slice(0, -1), `http://localhost:${docsPort}`]) {
          const answer = await preflight(target, origin);
          expect({ target, status: answer.status, origin: answer.headers.get('access-control-allow-origin') }).toEqual({ target, status: 204, origin });
        }
        expect((await preflight(target, 'http://127.0.0.1:8080')).status).toBe(403);
      }

      // A part that dies is started again on its port, and npm start says so.
      const [, serverPid] = await run.waitFor(/server {2}http:\S+ {3}\(sqlite: .*; pid (\d+)\)/);
      process.kill(Number(serverPid), 'SIGKILL');
      await run.waitFor(/✖ the reference server \(pid \d+\) was killed by SIGKILL; restarting it on port \d+\./);
      await run.waitFor(/✔ server {2}\S+ is back \(pid \d+\)/);
      expect((await fetch(`${serverUrl}/volumes`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

      run.child.kill('SIGINT');
      expect(await run.exited).toEqual({ code: 0, signal: null });
      expect(run.output()).toContain('stopped the docs, the mock and the server');
      expect(await refused(docsPort)).toBe(true);
      expect(await refused(mockPort)).toBe(true);
      expect(await refused(serverPort)).toBe(true);
    } finally {
      run.child.kill('SIGKILL');
    }
  }, 90_000);

  it('with --watch, serves the live channel through the docs server\'s Host rule, to pages of its origin only', async () => {
    const [docsPort, mockPort, serverPort] = [await freePort(), await freePort(), await freePort()];
    const run = start({ DOCS_PORT: String(docsPort), PORT: String(mockPort), SERVER_PORT: String(serverPort), ALLOWED_HOSTS: 'docs.example' }, ['--watch']);
    try {
      // The live channel is the docs server's from its start: no need to wait for the designer
      // loop, which is still starting (its linters, the bundle of HEAD) when Ctrl-C stops it below.
      // A whole session, the loop's start and stop included, is packages/dev/test/live.test.mjs.
      await run.waitFor(/Ctrl-C stops everything\./);
      const events = `http://127.0.0.1:${docsPort}/_live/events`;
      const own = { host: `127.0.0.1:${docsPort}`, origin: `http://127.0.0.1:${docsPort}`, 'sec-fetch-site': 'same-origin' };
      const heard = await firstChunk(events, own);
      expect(heard.status).toBe(200);
      expect(heard.type).toBe('text/event-stream; charset=utf-8');
      // A name ALLOWED_HOSTS adds is served (the docs server's rule, not a second one); any other is not.
      expect((await firstChunk(events, { host: `docs.example:${docsPort}` })).status).toBe(200);
      const rebinding = await firstChunk(events, { host: `attacker.example:${docsPort}` });
      expect(rebinding.status).toBe(403);
      expect(rebinding.text).toMatch(/^The Host "attacker\.example:\d+" is not served here/);
      expect(await firstChunk(events, { ...own, origin: 'http://attacker.example' })).toMatchObject({ status: 403, text: 'Refused: the page is on another origin.\n' });
      // The page itself comes with the live client.
      expect(await (await fetch(`http://127.0.0.1:${docsPort}/`)).text()).toContain('<script type="application/json" id="cloudapi-live">');
      run.child.kill('SIGINT');
      expect(await run.exited).toEqual({ code: 0, signal: null });
    } finally {
      run.child.kill('SIGKILL');
    }
  }, 150_000);

  it('stops the mock and fails with a message when the docs port is taken', async () => {
    const blocker = createServer();
    await new Promise((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const mockPort = await freePort();
    const run = start({ DOCS_PORT: String(blocker.address().port), PORT: String(mockPort) });
    try {
      const { code } = await run.exited;
      expect(code).toBe(1);
      expect(run.output()).toMatch(/the docs server did not start: port \d+ on 127\.0\.0\.1 is in use: set DOCS_PORT/);
      expect(await refused(mockPort)).toBe(true);
    } finally {
      run.child.kill('SIGKILL');
      blocker.close();
    }
  }, 90_000);

  it('stops the docs and the mock and fails with a message when the server port is taken', async () => {
    const blocker = createServer();
    await new Promise((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const [docsPort, mockPort] = [await freePort(), await freePort()];
    const run = start({ DOCS_PORT: String(docsPort), PORT: String(mockPort), SERVER_PORT: String(blocker.address().port) });
    try {
      const { code } = await run.exited;
      expect(code).toBe(1);
      expect(run.output()).toMatch(/the reference server did not start: port \d+ on 127\.0\.0\.1 is already in use: .*set SERVER_PORT/);
      expect(await refused(docsPort)).toBe(true);
      expect(await refused(mockPort)).toBe(true);
    } finally {
      run.child.kill('SIGKILL');
      blocker.close();
    }
  }, 90_000);

  it('refuses an ALLOWED_HOSTS entry or a CORS origin that it cannot read, naming it', async () => {
    for (const [env, message] of [[{ ALLOWED_HOSTS: 'http://docs.example' }, 'ALLOWED_HOSTS: "http://docs.example" is not a host name'], [{ CORS_ORIGINS: 'null' }, 'CORS origin "null" is never trusted']]) {
      const run = start(env);
      expect((await run.exited).code).toBe(2);
      expect(run.output()).toContain(message);
    }
  });

  it('refuses a port that is not a number', async () => {
    const run = start({ DOCS_PORT: 'eighty' });
    expect((await run.exited).code).toBe(2);
    expect(run.output()).toContain('DOCS_PORT must be an integer from 0 to 65535, got "eighty"');
  });
});
