// `npm run bench:mock`: what the mock costs, with Prism alone as the anchor in the same run.
//
// - start-up until the mock answers (median of three starts);
// - requests per second (autocannon, 127.0.0.1) on GET /v4/regions and on POST /v4/volumes with a
//   valid body, to Prism's own HTTP server (prism-http-server, the anchor) and to the mock (the
//   front layer calling Prism's engine), alternating, BENCH_ROUNDS rounds; the front layer's cost
//   is the drop in requests per second, and the CPU the worker process spends per request (both
//   servers run in it), which the machine's other load moves far less; a bare node:http server
//   answering the same bytes is the ceiling of the load generator on this machine;
// - how long a rewritten document takes to be served (`reload()`), and how long the mock takes to
//   answer again after its worker (Prism) is killed with SIGKILL, with a standby and without.
//
// The mock runs in its own process (scripts/bench-serve.mjs), as `npm run mock` does, so the load
// generator does not share its event loop. Prints figures; asserts nothing.
// BENCH_SECONDS (5), BENCH_CONNECTIONS (10) and BENCH_ROUNDS (3) change the load.
import { loadBundle } from '@cloudapi/spec/bundle';
import { command, parse } from '@cloudapi/spec/cli';
import autocannon from 'autocannon';
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';

// --help prints what it measures; the load is set through the environment.
parse(command('bench:mock', "The mock's requests per second on a GET and a POST beside Prism's own server, its start-up, reload and recovery times.").addHelpText('after', '\nEnvironment: BENCH_SECONDS (5), BENCH_CONNECTIONS (10), BENCH_ROUNDS (3).'));

const require = createRequire(import.meta.url);
const bundle = loadBundle();
const prismVersion = JSON.parse(readFileSync(require.resolve('@stoplight/prism-http/package.json'), 'utf8')).version;
const seconds = Number(process.env.BENCH_SECONDS || 5);
const connections = Number(process.env.BENCH_CONNECTIONS || 10);
const rounds = Number(process.env.BENCH_ROUNDS || 3);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;

/** Starts the mock in a child process; resolves with its addresses and a way to talk to it. */
function serve(env = {}) {
  const began = performance.now();
  const child = fork(new URL('./bench-serve.mjs', import.meta.url), [], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const ask = (type) => new Promise((resolve) => { child.once('message', resolve); child.send({ type }); });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ ...message, startMs: performance.now() - began, ask, stop: () => { child.disconnect(); return new Promise((r) => child.once('exit', r)); } }));
    child.once('exit', (code) => reject(new Error(`the mock exited (${code}) before it listened`)));
  });
}

function load(url, { method = 'GET', headers, body } = {}) {
  return autocannon({ url, method, headers, body, connections, duration: seconds });
}

// CPU time a process has used, in ms (Linux /proc; null elsewhere). Prism's own server and the
// front layer run in the same worker process, so its CPU per request compares them whatever else
// the machine is doing, where requests per second move with the machine's load.
function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [utime, stime] = stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, 13).map(Number);
    return ((utime + stime) * 1000) / 100; // clock ticks, 100 a second on Linux
  } catch {
    return null;
  }
}
async function measure(url, c, pid) {
  const before = cpuMs(pid);
  const result = await load(url, c);
  const after = cpuMs(pid);
  result.cpuPerRequest = before === null || after === null ? null : (after - before) / result.requests.total;
  return result;
}

const startTimes = [];
for (let i = 0; i < 3; i++) {
  const mock = await serve();
  startTimes.push(mock.startMs);
  await mock.stop();
}

const volume = JSON.stringify(bundle.components.examples.VolumeCreateInRegion.value);
const cases = [
  { name: 'GET /v4/regions', path: '/v4/regions' },
  { name: 'POST /v4/volumes', path: '/v4/volumes', method: 'POST', headers: { authorization: 'Bearer bench', 'content-type': 'application/json' }, body: volume },
];

const mock = await serve();
const results = new Map(); // `${case} ${target}` → [result per round]
const record = (key, result) => results.set(key, [...(results.get(key) ?? []), result]);
const reloads = [];
const recoveries = [];
try {
  for (let round = 0; round < rounds; round++) {
    for (const c of cases) {
      // Alternate which goes first, so a machine getting busier does not favour one side.
      const order = round % 2 === 0 ? ['prism', 'front'] : ['front', 'prism'];
      for (const target of order) record(`${c.name} ${target}`, await measure(`${target === 'prism' ? mock.prismUrl : mock.url}${c.path}`, c, mock.workerPid));
    }
  }
  // The ceiling: a bare node:http server answering the same bytes (in this process, beside the
  // load generator), which shows the generator is not what limits the figures above.
  const regions = await (await fetch(`${mock.baseUrl}/regions`)).text();
  const bare = createServer((req, res) => { req.resume(); res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(regions) }).end(regions); });
  await new Promise((resolve) => bare.listen(0, '127.0.0.1', resolve));
  record('bare', await load(`http://127.0.0.1:${bare.address().port}/v4/regions`));
  bare.close();

  for (let i = 0; i < 3; i++) reloads.push((await mock.ask('reload')).ms);
} finally {
  await mock.stop();
}
// Answering again after the worker is killed, with a standby (the bin's default) and without.
for (const standby of [true, false]) {
  const killed = await serve({ BENCH_STANDBY: standby ? '1' : '0' });
  try {
    for (let i = 0; i < 3; i++) recoveries.push({ standby, ms: (await killed.ask('kill')).ms });
  } finally {
    await killed.stop();
  }
}

const rps = (key) => median(results.get(key).map((r) => r.requests.average));
const cpu = (key) => { const values = results.get(key).map((r) => r.cpuPerRequest).filter((v) => v !== null); return values.length ? median(values) : null; };
const p50 = (key) => median(results.get(key).map((r) => r.latency.p50));
const non2xx = (key) => results.get(key).reduce((n, r) => n + r.non2xx + r.errors, 0);
console.log(`Mock benchmark (Prism ${prismVersion}, its own server vs the front layer, ${Object.keys(bundle.paths).length} paths, Node ${process.version}, ${connections} connections, ${rounds} × ${seconds} s per figure)`);
console.log(`  start-up until it answers: median ${fmt(median(startTimes))} (runs: ${startTimes.map(fmt).join(', ')})`);
console.log(`  ${'request'.padEnd(18)} ${'Prism alone'.padStart(14)} ${'front + Prism'.padStart(14)} ${'front cost'.padStart(11)}   p50 Prism / front   CPU per request Prism / front`);
for (const c of cases) {
  const [prism, front] = [rps(`${c.name} prism`), rps(`${c.name} front`)];
  const [prismCpu, frontCpu] = [cpu(`${c.name} prism`), cpu(`${c.name} front`)];
  const bad = non2xx(`${c.name} prism`) + non2xx(`${c.name} front`);
  const cpuText = prismCpu === null ? 'n/a' : `${prismCpu.toFixed(2)} / ${frontCpu.toFixed(2)} ms (${(((frontCpu - prismCpu) / prismCpu) * 100).toFixed(1)} %)`;
  console.log(`  ${c.name.padEnd(18)} ${`${prism.toFixed(0)} req/s`.padStart(14)} ${`${front.toFixed(0)} req/s`.padStart(14)} ${`${(((prism - front) / prism) * 100).toFixed(1)} %`.padStart(11)}   ${`${p50(`${c.name} prism`)} / ${p50(`${c.name} front`)} ms`.padEnd(18)}  ${cpuText}${bad ? `   (${bad} non-2xx or errors!)` : ''}`);
}
console.log(`  ${'bare node:http'.padEnd(18)} ${`${rps('bare').toFixed(0)} req/s`.padStart(14)}   (the same bytes, no Prism: the load generator's ceiling here)`);
console.log(`  rewritten document served (reload()): median ${reloads.length ? fmt(median(reloads)) : '-'} (runs: ${reloads.map(fmt).join(', ')})`);
for (const standby of [true, false]) {
  const runs = recoveries.filter((r) => r.standby === standby).map((r) => r.ms);
  console.log(`  answering again after its Prism is killed (SIGKILL), ${standby ? 'with a standby (the bin\'s default)' : 'restarted (no standby)'}: median ${fmt(median(runs))} (runs: ${runs.map(fmt).join(', ')})`);
}
