#!/usr/bin/env node
// `npm run bench -w @cloudapi/contract`: how long a full contract run takes, beside its anchor in
// the same run: the same number of plain requests sent to the same target by a bare node:http
// loop (what the target itself costs). Against the mock always (target: under 30 s); against the
// reference server with --examples 20 when one is given (`-- --server URL --tokens FILE`) or
// when packages/server is in the checkout (`-- --checkout DIR` for another one; target: under
// 60 s); `-- --only AREAS` narrows the server run. Prints figures; asserts nothing.
import http from 'node:http';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { startMock } from '@cloudapi/mock';
import { readTokensFile, runContract } from '../dist/index.js';
import { startServer } from './server.mjs';

const { values: args } = parseArgs({ options: { server: { type: 'string' }, tokens: { type: 'string' }, examples: { type: 'string' }, only: { type: 'string' }, checkout: { type: 'string' } } });
const only = args.only ? args.only.split(',') : undefined;
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

// The anchor: n GETs of one list, as many at a time as the kit sends to that target.
async function bare(url, n, concurrency) {
  const started = performance.now();
  let next = 0;
  const one = () => new Promise((resolve) => {
    http.get(url, { agent }, (res) => { res.resume(); res.on('end', resolve); }).on('error', resolve);
  });
  await Promise.all(Array.from({ length: concurrency }, async () => { while (next++ < n) await one(); }));
  return performance.now() - started;
}

const requestsOf = (result) => result.operations.reduce((n, op) => n + op.requests.filter((r) => r.status !== null && r.status !== undefined).length, 0);
const line = (label, result, anchorMs, target) => {
  const n = requestsOf(result);
  return `  ${label.padEnd(34)} ${(result.durationMs / 1000).toFixed(1).padStart(6)} s  ${String(n).padStart(6)} requests (+ generated)  ${result.coverage.successValidated}/${result.coverage.selected} validated, exit ${result.exitCode}` +
    `\n  ${'anchor: same count, bare node:http'.padEnd(34)} ${(anchorMs / 1000).toFixed(1).padStart(6)} s  → the kit costs ${(result.durationMs / anchorMs).toFixed(1)}x the target's own time; target < ${target} s`;
};

console.log(`Contract kit benchmark (Node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')})`);
const mock = await startMock({ port: 0 });
try {
  const result = await runContract({ baseUrl: mock.baseUrl, examples: Number(args.examples ?? 5), seed: 1 });
  const anchor = await bare(`${mock.baseUrl}/regions`, requestsOf(result), 8);
  console.log(line('full run against the Prism mock', result, anchor, 30));
} finally {
  await mock.stop();
}

let server;
if (args.server) server = { baseUrl: args.server, tokensFile: args.tokens, stop: async () => {} };
else {
  try { server = await startServer(args.checkout ? { checkout: args.checkout } : {}); } catch (error) { console.log(`  against the reference server: not run (${error.message}; give -- --server URL --tokens FILE)`); }
}
if (server) {
  try {
    const tokens = server.tokensFile ? readTokensFile(server.tokensFile) : undefined;
    const result = await runContract({ baseUrl: server.baseUrl, tokens, examples: 20, allowDestructive: true, seed: 1, only });
    const anchor = await bare(`${server.baseUrl}/regions`, requestsOf(result), 1);
    console.log(line(`${only ? only.join(',') : 'full run'}, --examples 20, the server`, result, anchor, 60));
  } finally {
    await server.stop();
  }
}
agent.destroy();
