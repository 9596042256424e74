// `npm run bench`: the client's cost per call against a bare `fetch` of the same request and
// openapi-fetch alone, in one run, on a local keep-alive node:http server on 127.0.0.1 (started and
// stopped here). Runs the built package (npm run build first).
//
// Calls are interleaved one by one, each variant in turn (the order rotating), so that the load of
// a shared machine falls on every variant alike; each variant's figure is its median call.
// The client's default 30 s timeout puts an AbortSignal on every request, which Node's fetch makes
// costly; openapi-fetch with the same timeout (`signal: AbortSignal.timeout(30_000)`) is measured
// too, to tell that cost from the client's own.
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
// Without a timeout no AbortSignal goes with the request: in Node's fetch a signal costs a few µs.
const untimed = createClient({ baseUrl, token, userAgent: 'bench', timeoutMs: 0 });
// openapi-fetch alone with the same headers, to tell its share of the cost from ours.
const plain = createFetchClient({ baseUrl, headers });
const timeout = () => AbortSignal.timeout(30_000);
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
    'openapi-fetch, 30 s timeout': async () => expectOk(await plain.GET('/volumes/{volumeId}', { ...path, signal: timeout() })),
    'client (defaults: 30 s timeout, retries)': async () => expectOk(await client.GET('/volumes/{volumeId}', path)),
    'client (timeoutMs: 0)': async () => expectOk(await untimed.GET('/volumes/{volumeId}', path)),
  },
  'POST /volumes': {
    'bare fetch': async () => {
      const response = await fetch(`${baseUrl}/volumes`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expectOk({ data: await response.json() });
    },
    'openapi-fetch alone': async () => expectOk(await plain.POST('/volumes', { body })),
    'openapi-fetch, 30 s timeout': async () => expectOk(await plain.POST('/volumes', { body, signal: timeout() })),
    'client (defaults: 30 s timeout, retries)': async () => expectOk(await client.POST('/volumes', { body })),
    'client (timeoutMs: 0)': async () => expectOk(await untimed.POST('/volumes', { body })),
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
      const vsAnchor = name.startsWith('client') ? `, ${signed(value - anchor)} over openapi-fetch alone (× ${(value / anchor).toFixed(3)})` : '';
      console.log(`  ${name.padEnd(42)} ${micro(value)}${vsBare}${vsAnchor}`);
    }
    const verdict = (label, client, openapiFetch) => {
      const extra = median[client] - median[openapiFetch];
      console.log(`  target, ${label}: ${signed(extra)}, ${extra <= TARGET_US ? 'within' : 'NOT within'} ${TARGET_US} µs`);
    };
    verdict('the client with its defaults vs openapi-fetch alone', 'client (defaults: 30 s timeout, retries)', 'openapi-fetch alone');
    verdict('both with a 30 s timeout', 'client (defaults: 30 s timeout, retries)', 'openapi-fetch, 30 s timeout');
    verdict('both without a timeout', 'client (timeoutMs: 0)', 'openapi-fetch alone');
  }
} finally {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}
