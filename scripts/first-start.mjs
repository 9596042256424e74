#!/usr/bin/env node
// What a new user does after `npm install`, checked: `npm start` (on a fresh clone, with nothing
// built, it builds first), on free ports, until it prints the addresses of the docs, the mock and
// the server and its token; each address answers; a volume created with that token; Ctrl-C
// (SIGINT) stops it with exit 0; a second `npm start` lists the volume. .ci/run calls this on its
// fresh clone before npm test. Prints the time from `npm start` to all three serving; exits 1 with
// the output of the failing start on any failure.
//
//   node scripts/first-start.mjs [--timeout-seconds 900]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const flag = process.argv.indexOf('--timeout-seconds');
const timeoutMs = (flag > 0 ? Number(process.argv[flag + 1]) : 900) * 1000;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cloudapi-first-start-'));

function fail(message, output = '') {
  console.error(`✖ first start: ${message}${output ? `\n--- output of npm start\n${output.slice(-6000)}` : ''}`);
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(1);
}

/** `npm start` on free ports until it prints its three addresses and the token. */
function start() {
  const began = Date.now();
  // detached: a process group of its own, so the SIGINT reaches npm start as Ctrl-C would.
  const child = spawn(npm, ['start'], {
    cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: '0', DOCS_PORT: '0', SERVER_PORT: '0', DATA_DIR: dataDir, TRANSITION_MS: '0' },
  });
  let output = '';
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start printed no addresses within ${timeoutMs / 1000} s`)), timeoutMs);
    const read = (chunk) => {
      output += chunk;
      const docs = /✔ docs\s+(http:\/\/\S+)/.exec(output)?.[1];
      const mock = /✔ mock\s+(http:\/\/\S+)/.exec(output)?.[1];
      const server = /✔ server\s+(http:\/\/\S+)/.exec(output)?.[1];
      const token = /token: (\S+)/.exec(output)?.[1];
      if (docs && mock && server && token) { clearTimeout(timer); resolve({ docs, mock, server, token, seconds: (Date.now() - began) / 1000 }); }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', (chunk) => { output += chunk; });
    exited.then(({ code, signal }) => { clearTimeout(timer); reject(new Error(`npm start exited (${code ?? signal}) before it served`)); });
  });
  return { child, ready, exited, output: () => output };
}

async function stop(run) {
  process.kill(-run.child.pid, 'SIGINT');
  const { code, signal } = await Promise.race([run.exited, new Promise((resolve) => setTimeout(() => resolve({ code: 'still running 30 s after SIGINT' }), 30_000))]);
  // npm itself ends by the SIGINT it was sent (as after Ctrl-C in a terminal); what counts is that
  // start.mjs stopped all three and said so, or that everything exited 0.
  const stoppedCleanly = code === 0 || (signal === 'SIGINT' && /✔ stopped the docs, the mock and the server\./.test(run.output()));
  if (!stoppedCleanly) {
    try { process.kill(-run.child.pid, 'SIGKILL'); } catch { /* gone */ }
    fail(`npm start did not stop cleanly on SIGINT (${code ?? signal})`, run.output());
  }
}

async function expectStatus(url, init, status, what, run) {
  const response = await fetch(url, init).catch((error) => fail(`${what}: ${error.message}`, run.output()));
  const text = await response.text();
  if (response.status !== status) fail(`${what} answered ${response.status}, not ${status}: ${text.slice(0, 500)}`, run.output());
  return text ? JSON.parse(text.startsWith('<') ? 'null' : text) : null;
}

const first = start();
const at = await first.ready.catch((error) => fail(error.message, first.output()));
await expectStatus(at.docs, {}, 200, `the docs (${at.docs})`, first);
await expectStatus(`${at.mock}/regions`, {}, 200, `the mock (${at.mock}/regions)`, first);
const auth = { authorization: `Bearer ${at.token}` };
const label = `first-start-${process.pid}`;
const volume = await expectStatus(`${at.server}/volumes`, {
  method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ label, region: 'us-east', size: 20 }),
}, 200, 'a volume create on the server with the printed token', first);
await stop(first);

const second = start();
const again = await second.ready.catch((error) => fail(`the second start: ${error.message}`, second.output()));
if (again.token !== at.token) fail('the second start printed another token: the first one\'s data is not reused', second.output());
const list = await expectStatus(`${again.server}/volumes`, { headers: auth }, 200, 'the volume list after a restart', second);
if (!list.data.some((item) => item.id === volume.id && item.label === label)) fail(`volume ${volume.id} (${label}) is not listed after a restart`, second.output());
await stop(second);
rmSync(dataDir, { recursive: true, force: true });
console.log(`✔ first start: npm start served the docs, the mock and the server in ${at.seconds.toFixed(1)} s (the second start in ${again.seconds.toFixed(1)} s); volume ${volume.id} created, still listed after Ctrl-C and a restart`);
