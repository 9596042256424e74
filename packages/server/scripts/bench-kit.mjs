// What `npm run bench:server` (scripts/bench.mjs) measures with: server processes and bare
// node:http servers spawned on free ports, autocannon subjects loaded in turns, CPU time per
// request from /proc, and the test harness's private PostgreSQL (test/harness/postgres.ts,
// compiled by tsup at run time, so that there is one way of starting it).
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';

export const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The server's bin; BENCH_SERVER_BIN runs another build of it (an A/B comparison of two builds). */
const bin = process.env.BENCH_SERVER_BIN ? path.resolve(process.env.BENCH_SERVER_BIN) : path.join(packageDir, 'bin/cloudapi-server.mjs');

/** Spawns the server on a free port; resolves once GET /health answers, with the time it took. */
export async function spawnServer(env) {
  const began = performance.now();
  const child = spawn(process.execPath, [bin], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: '', ...env },
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
  return { child, pids: [child.pid], url, baseUrl: `${url}/v4`, startMs: performance.now() - began, stop: async () => { child.kill('SIGTERM'); await exited; } };
}

/** A bare node:http server answering one fixed JSON body (text), in its own process like the others. */
export async function spawnBare(body) {
  const source = `const http = require('node:http'); const body = ${JSON.stringify(body)};
    http.createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }); res.end(body); })
      .listen(0, '127.0.0.1', function () { console.log('port ' + this.address().port); });`;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve) => child.stdout.on('data', (d) => { const m = /port (\d+)/.exec(String(d)); if (m) resolve(m[1]); }));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return { pids: [child.pid], baseUrl: `http://127.0.0.1:${port}/v4`, stop: async () => { child.kill('SIGTERM'); await exited; } };
}

export function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** User + system CPU of a process so far, in microseconds (0 once it is gone). */
function cpuMicros(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** A process and its children (PostgreSQL's backends are children of the postmaster). */
export function withChildren(pid) {
  return () => {
    const pids = [pid];
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) pids.push(Number(entry));
      } catch { /* gone meanwhile */ }
    }
    return pids;
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * One subject of a case: `rounds` slices of autocannon, summed. `urls` (one or more, e.g. two server
 * processes) share the connections. `cpu` names the processes whose CPU time is counted: a list of
 * { label, pids: () => number[] }.
 */
export function subject(name, urls, { method = 'GET', body, headers: extra = {}, token, cpu = [] }, { connections, seconds, rounds }) {
  const list = [urls].flat();
  const headers = { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}), ...extra };
  const slices = [];
  const cpuTotals = cpu.map(() => 0);
  const share = (i) => Math.floor(connections / list.length) + (i < connections % list.length ? 1 : 0);
  return {
    name,
    /** Load not counted: the routes' validators and serializers compile, the pools connect, the JIT warms. */
    async warm() {
      await Promise.all(list.map((url, i) => autocannon({ url, method, headers, body, connections: share(i), duration: Math.min(1, seconds / rounds) })));
    },
    async slice() {
      const pidSets = cpu.map((c) => c.pids());
      const before = pidSets.map((pids) => pids.map(cpuMicros));
      const results = await Promise.all(list.map((url, i) => autocannon({ url, method, headers, body, connections: share(i), duration: seconds / rounds })));
      pidSets.forEach((pids, i) => { cpuTotals[i] += pids.reduce((sum, pid, j) => sum + cpuMicros(pid) - before[i][j], 0); });
      const total = (key) => results.reduce((sum, r) => sum + key(r), 0);
      slices.push({
        requests: total((r) => r.requests.total), ms: Math.max(...results.map((r) => r.duration * 1000)),
        p50: Math.max(...results.map((r) => r.latency.p50)), p99: Math.max(...results.map((r) => r.latency.p99)),
        ok: total((r) => r['2xx']), other: total((r) => r.non2xx), errors: total((r) => r.errors),
      });
    },
    get result() {
      const sum = (key) => slices.reduce((total, s) => total + s[key], 0);
      const requests = sum('requests');
      return {
        name, rps: requests / (sum('ms') / 1000), p50: median(slices.map((s) => s.p50)), p99: median(slices.map((s) => s.p99)),
        ok: sum('ok'), other: sum('other'), errors: sum('errors'),
        cpu: cpu.map((c, i) => ({ label: c.label, micros: requests ? cpuTotals[i] / requests : NaN })),
      };
    },
  };
}

/** Loads the subjects of one case in turns, round after round, after a warm-up of each. */
export async function measure(subjects, rounds) {
  for (const s of subjects) await s.warm();
  for (let round = 0; round < rounds; round++) for (const s of subjects) await s.slice();
  return subjects.map((s) => s.result);
}

export function line(r) {
  const cpu = r.cpu.length ? `   CPU/request: ${r.cpu.map((c) => `${c.label} ${c.micros.toFixed(0)} µs`).join(', ')}` : '';
  return `${r.name.padEnd(22)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(3)} ms   (${r.ok} 2xx, ${r.other} other, ${r.errors} errors)${cpu}`;
}

/**
 * The test harness's way of getting and starting PostgreSQL (test/harness/postgres.ts), built to
 * JavaScript by tsup into node_modules/.cache (where its imports resolve).
 */
export async function harnessPostgres() {
  const { build } = await import('tsup');
  const outDir = path.join(packageDir, 'node_modules/.cache/bench-harness');
  await build({ entry: { postgres: path.join(packageDir, 'test/harness/postgres.ts') }, outDir, format: ['esm'], target: 'node20', platform: 'node', config: false, silent: true, dts: false, sourcemap: false, skipNodeModulesBundle: true, outExtension: () => ({ js: '.mjs' }) });
  return import(pathToFileURL(path.join(outDir, 'postgres.mjs')).href);
}
