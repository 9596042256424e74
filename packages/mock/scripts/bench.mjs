// `npm run bench:mock`: how long the mock takes to start, and how many requests per second it
// answers on a GET and on a POST with a body (autocannon, 127.0.0.1 only, bounded in time).
// Prints figures; asserts nothing. BENCH_SECONDS and BENCH_CONNECTIONS override the load.
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { startMock } from '../src/index.mjs';

const require = createRequire(import.meta.url);
const bundle = JSON.parse(readFileSync(require.resolve('@cloudapi/spec/openapi.json'), 'utf8'));
const seconds = Number(process.env.BENCH_SECONDS || 10);
const connections = Number(process.env.BENCH_CONNECTIONS || 10);
const starts = 3;

const startTimes = [];
for (let i = 0; i < starts; i++) {
  const began = performance.now();
  const mock = await startMock({ port: 0 });
  startTimes.push(performance.now() - began);
  await mock.stop();
}
startTimes.sort((a, b) => a - b);

const volume = bundle.components.examples.VolumeCreateInRegion.value;
const cases = [
  { name: 'GET /v4/regions', method: 'GET', path: '/regions' },
  { name: 'POST /v4/volumes', method: 'POST', path: '/volumes', headers: { authorization: 'Bearer bench', 'content-type': 'application/json' }, body: JSON.stringify(volume) },
];

const mock = await startMock({ port: 0 });
const results = [];
try {
  for (const c of cases) {
    const result = await autocannon({
      url: `${mock.baseUrl}${c.path}`, method: c.method, headers: c.headers, body: c.body, connections, duration: seconds,
    });
    results.push({ ...c, result });
  }
} finally {
  await mock.stop();
}

console.log(`Mock benchmark (Prism ${JSON.parse(readFileSync(require.resolve('@stoplight/prism-cli/package.json'), 'utf8')).version}, ${Object.keys(bundle.paths).length} paths, Node ${process.version})`);
console.log(`  start-up, ready to answer: median ${(startTimes[1] / 1000).toFixed(2)} s (runs: ${startTimes.map((t) => (t / 1000).toFixed(2)).join(', ')} s)`);
for (const { name, result } of results) {
  const ok = result['2xx'];
  console.log(`  ${name.padEnd(18)} ${result.requests.average.toFixed(0).padStart(6)} req/s average, latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms; ${ok} 2xx, ${result.non2xx} other, ${result.errors} errors (${connections} connections, ${seconds} s)`);
}
