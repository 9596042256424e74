// `npm run bench`: the client's overhead per call against a bare `fetch` of the same request,
// on a local keep-alive server on 127.0.0.1 (started and stopped here). Runs the built package
// (npm run build first). Rounds alternate between the variants; the median round is reported.
//   BENCH_CALLS (default 2000) calls per round, BENCH_ROUNDS (default 7) rounds.
import { createServer } from 'node:http';
import createFetchClient from 'openapi-fetch';
import { createClient } from '../dist/index.js';

const CALLS = Number(process.env.BENCH_CALLS || 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 7);
const body = JSON.stringify({ id: 1, label: 'data', status: 'active', size: 20, region: 'us-east', compute_id: null, compute_label: null, filesystem_path: '/dev/x', created: '2018-01-01T00:01:01', updated: '2018-01-01T00:01:01', tags: [] });

const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body));
});
server.keepAliveTimeout = 60_000;
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${server.address().port}/v4`;

const token = 'bench-token';
const client = createClient({ baseUrl, token });
const lean = createClient({ baseUrl, token, retry: false, timeoutMs: 0 });
// openapi-fetch alone with the same header, to tell its share of the overhead from ours.
const plain = createFetchClient({ baseUrl, headers: { authorization: `Bearer ${token}`, 'user-agent': 'bench' } });
const variants = {
  'bare fetch': async () => {
    const response = await fetch(`${baseUrl}/volumes/1`, { headers: { authorization: `Bearer ${token}`, 'user-agent': 'bench' } });
    if (!response.ok) throw new Error(String(response.status));
    return response.json();
  },
  'openapi-fetch alone': async () => {
    const { data, error } = await plain.GET('/volumes/{volumeId}', { params: { path: { volumeId: 1 } } });
    if (error) throw new Error(String(error));
    return data;
  },
  'client.GET (defaults: retries, 30 s timeout)': async () => {
    const { data, error } = await client.GET('/volumes/{volumeId}', { params: { path: { volumeId: 1 } } });
    if (error) throw error;
    return data;
  },
  'client.GET (retry: false, timeoutMs: 0)': async () => {
    const { data, error } = await lean.GET('/volumes/{volumeId}', { params: { path: { volumeId: 1 } } });
    if (error) throw error;
    return data;
  },
};

async function round(call, calls) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await call();
  return Number(process.hrtime.bigint() - started) / 1_000 / calls; // µs per call
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

try {
  for (const call of Object.values(variants)) await round(call, Math.min(500, CALLS)); // warm-up
  const times = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, call] of Object.entries(variants)) times[name].push(await round(call, CALLS));
  }
  const bare = median(times['bare fetch']);
  console.log(`GET /volumes/{volumeId} on 127.0.0.1, ${CALLS} sequential calls × ${ROUNDS} rounds (median round), Node ${process.version}`);
  for (const [name, values] of Object.entries(times)) {
    const perCall = median(values);
    const overhead = name === 'bare fetch' ? '' : `  overhead ${(perCall - bare).toFixed(1)} µs/call (${(((perCall - bare) / bare) * 100).toFixed(0)} %)`;
    console.log(`  ${name.padEnd(46)} ${perCall.toFixed(1).padStart(7)} µs/call${overhead}`);
  }
} finally {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}
