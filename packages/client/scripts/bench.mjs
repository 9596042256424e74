// `npm run bench`: the client's cost per call against a bare `fetch` of the same request and
// openapi-fetch alone, in one run, on a local keep-alive node:http server on 127.0.0.1 (started and
// stopped here). Runs the built package (npm run build first).
//
// Calls are interleaved one by one, each variant in turn (the order rotating), so that the load of
// a shared machine falls on every variant alike; each variant's figure is its median call.
//   BENCH_CALLS (default 4000) calls per variant and request.
import { createServer } from 'node:http';
import createFetchClient from 'openapi-fetch';
import { createClient } from '../dist/index.js';

const CALLS = Number(process.env.BENCH_CALLS || 4000);
const WARM_UP = Math.min(500, CALLS);
/** The target of issue 18: the client within 10 µs of openapi-fetch alone per call. */
const TARGET_US = 10;

const volume = JSON.stringify({ id: 1, label: 'data', status: 'active', size: 20, region: 'us-east', compute_id: null, compute_label: null, filesystem_path: '/dev/x', created: '2018-01-01T00:01:01', updated: '2018-01-01T00:01:01', tags: [] });
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(volume) }).end(volume));
});
server.keepAliveTimeout = 60_000;
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${server.address().port}/v4`;

const token = 'bench-token';
const headers = { authorization: `Bearer ${token}`, 'user-agent': 'bench' };
const client = createClient({ baseUrl, token, userAgent: 'bench' });
const lean = createClient({ baseUrl, token, userAgent: 'bench', retry: false, timeoutMs: 0 });
// openapi-fetch alone with the same headers, to tell its share of the cost from ours.
const plain = createFetchClient({ baseUrl, headers });
const expectOk = ({ data, error }) => {
  if (error !== undefined || data?.id !== 1) throw new Error(`unexpected answer: ${error}`);
};
const path = { params: { path: { volumeId: 1 } } };
const body = { label: 'data', region: 'us-east' };

const requests = {
  'GET /volumes/{volumeId}': {
    'bare fetch': async () => {
      const response = await fetch(`${baseUrl}/volumes/1`, { headers });
      expectOk({ data: await response.json() });
    },
    'openapi-fetch alone': async () => expectOk(await plain.GET('/volumes/{volumeId}', path)),
    'client (defaults: 30 s timeout, retries)': async () => expectOk(await client.GET('/volumes/{volumeId}', path)),
    'client (retry: false, timeoutMs: 0)': async () => expectOk(await lean.GET('/volumes/{volumeId}', path)),
  },
  'POST /volumes': {
    'bare fetch': async () => {
      const response = await fetch(`${baseUrl}/volumes`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expectOk({ data: await response.json() });
    },
    'openapi-fetch alone': async () => expectOk(await plain.POST('/volumes', { body })),
    'client (defaults: 30 s timeout, retries)': async () => expectOk(await client.POST('/volumes', { body })),
    'client (retry: false, timeoutMs: 0)': async () => expectOk(await lean.POST('/volumes', { body })),
  },
};

/** Each variant's calls, in µs, measured one call at a time in rotating order. */
async function measure(variants, calls) {
  const names = Object.keys(variants);
  const samples = names.map(() => new Float64Array(calls));
  for (let i = 0; i < calls; i++) {
    for (let j = 0; j < names.length; j++) {
      const k = (i + j) % names.length;
      const started = process.hrtime.bigint();
      await variants[names[k]]();
      samples[k][i] = Number(process.hrtime.bigint() - started) / 1_000;
    }
  }
  return Object.fromEntries(names.map((name, k) => [name, samples[k].sort()[calls >> 1]]));
}

const micro = (value) => `${value.toFixed(1).padStart(7)} µs`;
const signed = (value) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(1)} µs`;

try {
  console.log(`@cloudapi/client overhead per call: a keep-alive node:http server on 127.0.0.1, ${CALLS} calls of each variant interleaved (median call), Node ${process.version}`);
  for (const [request, variants] of Object.entries(requests)) {
    await measure(variants, WARM_UP);
    const median = await measure(variants, CALLS);
    const bare = median['bare fetch'];
    const anchor = median['openapi-fetch alone'];
    console.log(`\n${request}`);
    for (const [name, value] of Object.entries(median)) {
      const vsBare = name === 'bare fetch' ? '' : `  ${signed(value - bare)} over bare fetch`;
      const vsAnchor = name.startsWith('client') ? `, ${signed(value - anchor)} over openapi-fetch (× ${(value / anchor).toFixed(3)})` : '';
      console.log(`  ${name.padEnd(42)} ${micro(value)}${vsBare}${vsAnchor}`);
    }
    const extra = median['client (defaults: 30 s timeout, retries)'] - anchor;
    console.log(`  target: the client with its defaults within ${TARGET_US} µs of openapi-fetch alone: ${extra <= TARGET_US ? 'met' : 'NOT met'} (${signed(extra)})`);
  }
} finally {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}
