// `npm run bench:server`: the reference server (embedded SQLite store, its own process) beside the
// Prism mock and a bare `node:http` server answering a fixed JSON body, all measured in this run
// with the same load generator (autocannon) and the same connections. The three run side by side
// and are loaded in turns, in BENCH_ROUNDS short slices each, so that a change in the machine's
// load during the run weighs on all of them alike; each figure is the total requests over the
// total time, latencies the median of the slices. Prints figures and the ratios of the targets;
// asserts nothing. The list cases (page 2 unfiltered, and page 1 with an X-Filter: +contains on
// label, ordered by created) run first, on exactly BENCH_ROWS volumes, each beside a bare
// node:http server answering that page's body as the server wrote it (the machine's floor for
// sending it). BENCH_SECONDS (default 10, per subject and case), BENCH_ROUNDS (default 5),
// BENCH_CONNECTIONS (default 10), BENCH_ROWS (default 100000 volumes stored for the list case).
// Last, the worst stall another client sees while the largest valid requests run (scripts/stall.mjs).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBundle } from '@cloudapi/spec/bundle';
import { command, parse } from '@cloudapi/spec/cli';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { startMock } from '@cloudapi/mock';
import { measureStall } from './stall.mjs';

// --help prints what it measures; the load is set through the environment.
parse(command('bench:server', "The reference server's requests per second, latency, start-up and memory beside Prism and bare node:http, with the targets' ratios.").addHelpText('after', '\nEnvironment: BENCH_SECONDS (10), BENCH_ROUNDS (5), BENCH_CONNECTIONS (10), BENCH_ROWS (100000).'));

const require = createRequire(import.meta.url);
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(packageDir, 'bin/cloudapi-server.mjs');
const bundle = loadBundle();
const seconds = Number(process.env.BENCH_SECONDS || 10);
const connections = Number(process.env.BENCH_CONNECTIONS || 10);
const rows = Number(process.env.BENCH_ROWS || 100_000);
const rounds = Number(process.env.BENCH_ROUNDS || 5);
const TOKEN = 'bench-token';
const work = mkdtempSync(path.join(os.tmpdir(), 'cloudapi-bench-'));
const tokensFile = path.join(work, 'tokens.json');
writeFileSync(tokensFile, JSON.stringify([{ token: TOKEN, scopes: '*', grants: 'all', restricted: false }]));

/** Spawns the server on a free port; resolves once GET /health answers, with the time it took. */
async function spawnServer(dataDir) {
  const began = performance.now();
  const child = spawn(process.execPath, [bin], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, TOKENS_FILE: tokensFile, LOG_LEVEL: 'warn', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => { output += d; });
  child.stderr.on('data', (d) => { output += d; });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let url;
  while (!(url = /serving (http:\/\/\S+)\/v4/.exec(output)?.[1])) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${output}`);
    await new Promise((r) => setTimeout(r, 2));
  }
  while ((await fetch(`${url}/health`).catch(() => null))?.status !== 200) await new Promise((r) => setTimeout(r, 2));
  return { child, url, baseUrl: `${url}/v4`, startMs: performance.now() - began, stop: async () => { child.kill('SIGTERM'); await exited; } };
}

/** A bare node:http server answering one fixed JSON body (text), in its own process like the others. */
async function spawnBare(body) {
  const source = `const http = require('node:http'); const body = ${JSON.stringify(body)};
    http.createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }); res.end(body); })
      .listen(0, '127.0.0.1', function () { console.log('port ' + this.address().port); });`;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve) => child.stdout.on('data', (d) => { const m = /port (\d+)/.exec(String(d)); if (m) resolve(m[1]); }));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return { baseUrl: `http://127.0.0.1:${port}/v4`, stop: async () => { child.kill('SIGTERM'); await exited; } };
}

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One subject of a case: `rounds` slices of autocannon, summed. */
function subject(name, url, { method = 'GET', body, headers: extra = {} } = {}) {
  const headers = { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}), ...extra };
  const slices = [];
  return {
    name,
    async slice() {
      const result = await autocannon({ url, method, headers, body, connections, duration: seconds / rounds });
      slices.push({ requests: result.requests.total, ms: result.duration * 1000, p50: result.latency.p50, p99: result.latency.p99, ok: result['2xx'], other: result.non2xx, errors: result.errors });
    },
    get result() {
      const sum = (key) => slices.reduce((total, s) => total + s[key], 0);
      return { name, rps: sum('requests') / (sum('ms') / 1000), p50: median(slices.map((s) => s.p50)), p99: median(slices.map((s) => s.p99)), ok: sum('ok'), other: sum('other'), errors: sum('errors') };
    },
  };
}

/** Loads the subjects of one case in turns, round after round. */
async function measure(subjects) {
  for (let round = 0; round < rounds; round++) for (const s of subjects) await s.slice();
  return subjects.map((s) => s.result);
}

// Start-up: three fresh data directories (migrations included), median.
const starts = [];
for (let i = 0; i < 3; i++) {
  const dir = path.join(work, `start-${i}`);
  const server = await spawnServer(dir);
  starts.push(server.startMs);
  await server.stop();
}
starts.sort((a, b) => a - b);

// The store with `rows` volumes (written straight into the SQLite file the server made).
const dataDir = path.join(work, 'data');
await (await spawnServer(dataDir)).stop();
const db = new Database(path.join(dataDir, 'cloudapi.sqlite'));
const now = Date.now();
const insert = db.prepare(`insert into volumes (label, size, region, compute_id, config_id, status, next_status, transition_at, created, updated)
  values (?, ?, 'us-east', null, null, 'active', null, null, ?, ?)`);
// Creation times a second apart, so ordering by `created` has work to do.
db.transaction(() => { for (let i = 1; i <= rows; i++) insert.run(`bench-${i}`, 10 + (i % 500), now - (rows - i) * 1000, now); })();
db.close();

// +contains on label and +order_by created: about 1% of the rows match.
const FILTER = JSON.stringify({ label: { '+contains': '-99' }, '+order_by': 'created', '+order': 'desc' });
const volumeExample = JSON.stringify(bundle.components.examples.VolumeCreateInRegion.value);
const volumeAnswer = bundle.components.examples.Volume?.value ?? { id: 1 };
const server = await spawnServer(dataDir);
const restartMs = server.startMs;
const mock = await startMock({ port: 0 });
const bare = await spawnBare(JSON.stringify(volumeAnswer));
const results = {};
let rss;
try {
  const id = Math.floor(rows / 2);
  // The lists first, while the store holds exactly `rows` volumes (the POST case adds more).
  const listUrl = `${server.baseUrl}/volumes?page=2&page_size=100`;
  const filteredUrl = `${server.baseUrl}/volumes?page=1&page_size=100`;
  const pageBody = async (url, headers = {}) => (await fetch(url, { headers: { authorization: `Bearer ${TOKEN}`, ...headers } })).text();
  const bareList = await spawnBare(await pageBody(listUrl));
  const bareFiltered = await spawnBare(await pageBody(filteredUrl, { 'x-filter': FILTER }));
  try {
    [results.listServer, results.listBare, results.filteredServer, results.filteredBare] = await measure([
      subject('server', listUrl), subject('bare node:http', `${bareList.baseUrl}/volumes`),
      subject('server filtered', filteredUrl, { headers: { 'x-filter': FILTER } }), subject('bare node:http', `${bareFiltered.baseUrl}/volumes`),
    ]);
  } finally {
    await Promise.all([bareList.stop(), bareFiltered.stop()]);
  }
  [results.getServer, results.getMock, results.getBare] = await measure([
    subject('server', `${server.baseUrl}/volumes/${id}`), subject('Prism mock', `${mock.baseUrl}/volumes/12345`), subject('bare node:http', `${bare.baseUrl}/volumes/12345`),
  ]);
  [results.postServer, results.postMock] = await measure([
    subject('server', `${server.baseUrl}/volumes`, { method: 'POST', body: volumeExample }), subject('Prism mock', `${mock.baseUrl}/volumes`, { method: 'POST', body: volumeExample }),
  ]);
  rss = rssMb(server.child.pid);
  results.stall = await measureStall({ baseUrl: server.baseUrl, token: TOKEN, durationMs: Math.max(2000, (seconds * 1000) / 2) });
} finally {
  await Promise.all([server.stop(), mock.stop(), bare.stop()]);
}
rmSync(work, { recursive: true, force: true });

const line = (r) => `${r.name.padEnd(15)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(3)} ms   (${r.ok} 2xx, ${r.other} other, ${r.errors} errors)`;
const verdict = (ok) => (ok ? '✔' : '✖');
const ratio = (a, b) => a / b;
const getVsMock = ratio(results.getServer.rps, results.getMock.rps);
const getVsBare = ratio(results.getServer.rps, results.getBare.rps);
const postVsMock = ratio(results.postServer.rps, results.postMock.rps);

console.log(`Reference server benchmark (Node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)} at the end; autocannon ${connections} connections, ${seconds} s per subject and case in ${rounds} turns; SQLite store, ${rows} volumes stored)`);
console.log('\nGET /v4/volumes/{id} with a bearer token');
for (const r of [results.getServer, results.getMock, results.getBare]) console.log(`  ${line(r)}`);
console.log('POST /v4/volumes (the spec\'s "inRegion" example: a volume with one tag)');
for (const r of [results.postServer, results.postMock]) console.log(`  ${line(r)}`);
console.log(`GET /v4/volumes?page=2&page_size=100 with ${rows} volumes stored (bare node:http: the same body)`);
for (const r of [results.listServer, results.listBare]) console.log(`  ${line(r)}`);
console.log(`GET /v4/volumes?page=1&page_size=100 with X-Filter ${FILTER} (bare node:http: the same body)`);
for (const r of [results.filteredServer, results.filteredBare]) console.log(`  ${line(r)}`);
console.log(`\nstart-up to GET /health = 200: median ${starts[1].toFixed(0)} ms on a new data directory (runs ${starts.map((s) => s.toFixed(0)).join(', ')} ms); ${restartMs.toFixed(0)} ms on the ${rows}-volume store`);
console.log(`RSS of the server after the load: ${rss.toFixed(0)} MB`);
const { stall } = results;
console.log(`\nlargest valid requests (a tag on 500 volumes; volumes created and updated with 100 tags of 50 characters), ${stall.heavy.requests} back to back, slowest ${stall.heavy.worstMs.toFixed(0)} ms:`);
console.log(`  another client's GET /v4/regions meanwhile: p50 ${stall.p50.toFixed(1)} ms, p99 ${stall.p99.toFixed(1)} ms, worst stall ${stall.worst.toFixed(1)} ms (${stall.probes} probes; alone: p99 ${stall.idle.p99.toFixed(1)} ms)`);
console.log('\ntargets');
console.log(`  ${verdict(getVsMock >= 25)} GET:  ${getVsMock.toFixed(1)}× Prism's req/s (target ≥ 25×)`);
console.log(`  ${verdict(getVsBare >= 0.4)} GET:  ${(getVsBare * 100).toFixed(0)}% of bare node:http (target ≥ 40%)`);
console.log(`  ${verdict(postVsMock >= 10)} POST: ${postVsMock.toFixed(1)}× Prism's req/s (target ≥ 10×)`);
console.log(`  ${verdict(results.listServer.p99 <= 25)} list page 2 at ${rows} rows: p99 ${results.listServer.p99} ms (target ≤ 25 ms; bare node:http with its body: p99 ${results.listBare.p99} ms)`);
console.log(`  ${verdict(results.filteredServer.p99 <= 25)} filtered and ordered list at ${rows} rows: p99 ${results.filteredServer.p99} ms (target ≤ 25 ms; bare node:http with its body: p99 ${results.filteredBare.p99} ms)`);
console.log(`  ${verdict(starts[1] <= 1500)} start-up: ${starts[1].toFixed(0)} ms (target ≤ 1500 ms)`);
console.log(`  ${verdict(rss <= 250)} RSS: ${rss.toFixed(0)} MB (target ≤ 250 MB)`);
console.log(`  ${verdict(stall.p99 < 50)} another client's p99 while the largest valid requests run: ${stall.p99.toFixed(1)} ms (target < 50 ms; worst stall ${stall.worst.toFixed(1)} ms)`);
