// Hostile requests over raw sockets against the built server in a process of its own (so that a
// crash shows as an exit, not as a failed test worker). After every case: the process is alive,
// another client's `GET /v4/regions` answers within 200 ms, no answer is a 5xx, every 4xx is an
// ErrorResponse, and no answer carries a stack trace or SQL text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, storeOptions, tempDir, TOKENS, writeTokensFile } from '../harness/harness.js';
import type { ServerProcess } from '../harness/harness.js';
import { rawExchange } from '../harness/raw-http.js';
import type { RawAnswer, RawExchange, RawOptions } from '../harness/raw-http.js';
import { hardeningCases } from './hardening-cases.js';
import type { CaseWorld } from './hardening-cases.js';

const PROBE_MS = 200;
const token = TOKENS.full.token;
let server: ServerProcess;
let baseUrl: string;
const world = {} as CaseWorld;
const probeTimes: number[] = [];

beforeAll(async () => {
  const store = await storeOptions('hardening');
  server = spawnServer({
    DATA_DIR: store.dataDir!,
    TOKENS_FILE: writeTokensFile(tempDir('hardening-tokens')),
    ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}),
  });
  baseUrl = await server.ready;
  const post = async (path: string, body: unknown) => {
    const answer = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!answer.ok) throw new Error(`set-up ${path}: ${answer.status} ${await answer.text()}`);
    return answer.json() as Promise<any>;
  };
  world.host = new URL(baseUrl).host;
  world.token = token;
  world.ticketId = (await post('/support/tickets', { summary: 'Hardening', description: 'Attachments of every shape.' })).id;
  world.volumeId = (await post('/volumes', { label: 'hardening', region: 'us-east', size: 20 })).id;
  await probe(); // the probe's own first answer compiles its route
});

afterAll(() => {
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
  if (probeTimes.length) {
    const sorted = [...probeTimes].sort((a, b) => a - b);
    console.log(`[hardening] ${probeTimes.length} probes after cases: median ${sorted[sorted.length >> 1]!.toFixed(1)} ms, worst ${sorted.at(-1)!.toFixed(1)} ms`);
  }
});

/** `GET /v4/regions` from a client of its own, timed. */
async function probe(): Promise<number> {
  const started = performance.now();
  const answer = await fetch(`${baseUrl}/regions`, { signal: AbortSignal.timeout(PROBE_MS * 5) });
  await answer.arrayBuffer();
  expect(answer.status).toBe(200);
  return performance.now() - started;
}

const LEAKS = /\n\s+at .+:\d+|\b(select|insert into|update|delete from)\b .*\b(from|where|values|set)\b|SQLITE_|sqlite3?\b|syntax error at or near|node_modules/i;

function checkAnswer(answer: RawAnswer, label: string, bodiless = false) {
  expect(answer.status, `${label}: ${answer.body}`).toBeLessThan(500);
  expect(answer.body, `${label}: no stack trace or SQL`).not.toMatch(LEAKS);
  // An answer to HEAD has no body to check.
  if (answer.status >= 400 && !bodiless) {
    let parsed: any;
    expect(() => { parsed = JSON.parse(answer.body); }, `${label}: a ${answer.status} with a JSON body: ${answer.body}`).not.toThrow();
    expect(Object.keys(parsed), label).toEqual(['errors']);
    expect(parsed.errors.length, label).toBeGreaterThan(0);
    for (const error of parsed.errors) expect(typeof error.reason, label).toBe('string');
  }
}

describe(`hardening: ${hardeningCases.length} hostile requests over raw sockets`, () => {
  for (const c of hardeningCases) {
    it(c.name, async () => {
      if (c.run) {
        for (const exchange of await c.run(world, baseUrl)) for (const answer of exchange.answers) checkAnswer(answer, c.name);
      } else {
        const request = c.request!(world);
        const exchange: RawExchange = await rawExchange(baseUrl, request.chunks, request.options as RawOptions | undefined);
        for (const answer of exchange.answers) checkAnswer(answer, c.name, request.options?.bodiless);
        if (c.check) c.check(exchange, world);
      }
      expect(server.child.exitCode, `the server exited:\n${server.output().slice(-2000)}`).toBeNull();
      const took = await probe();
      probeTimes.push(took);
      expect(took, 'GET /v4/regions from another client').toBeLessThan(PROBE_MS);
    });
  }
});
