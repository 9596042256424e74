// Parity: the same scenarios (parity/scenarios.ts, derived from the bundle) against the reference
// server over HTTP and against the stateful handlers in msw/node, step by step. Every difference
// in status, body (times, origins and server-made random values aside, parity/compare.ts) or
// compared header fails, unless the MSW README's "Differences from the server" table names its
// step; a difference the table names that no longer happens fails too, so the table stays true.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setupServer } from 'msw/node';
import { startServer } from '@cloudapi/server';
import type { RunningServer } from '@cloudapi/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHandlers } from '../src/index.js';
import { bundle } from '../src/bundle.js';
import { comparedHeaders, differences } from './parity/compare.js';
import type { Answer } from './parity/compare.js';
import { Scenarios } from './parity/scenarios.js';
import type { Step } from './parity/scenarios.js';

const TOKEN = 'parity-token';
const mswOrigin = 'http://msw.parity.test';
const dataDir = mkdtempSync(path.join(tmpdir(), 'cloudapi-parity-'));
const tokensFile = path.join(dataDir, 'tokens.json');
writeFileSync(tokensFile, JSON.stringify([{ token: TOKEN, scopes: '*', grants: 'all', restricted: false }]));
const msw = setupServer(...createHandlers({ baseUrl: `${mswOrigin}/v4`, stateful: true, transitionMs: 0, tokens: [{ token: TOKEN, scopes: '*' }] }));
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ port: 0, dataDir: path.join(dataDir, 'data'), tokensFile, transitionMs: 0, logLevel: 'silent' });
  msw.listen({ onUnhandledRequest: 'bypass' });
}, 180_000);
afterAll(async () => {
  msw.close();
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
}, 180_000);

/** The README's declared differences: the step keys in the first column of its table. */
function declaredDifferences(): string[] {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const section = readme.split('### Differences from the server')[1]?.split(/\n#{2,3} /)[0] ?? '';
  return [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!);
}

async function answerOf(response: Response): Promise<Answer> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => { headers[name] = value; });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch { /* not JSON: compared as text */ }
  return { status: response.status, headers, body };
}

function request(base: string, step: Step): [string, RequestInit] {
  const url = `${base}${step.path}${step.query ? `?${new URLSearchParams(step.query)}` : ''}`;
  const headers: Record<string, string> = { ...step.headers };
  if (step.token !== null) headers.authorization = `Bearer ${step.token ?? TOKEN}`;
  if (step.form) {
    const form = new FormData();
    for (const [name, { fileName, content }] of Object.entries(step.form)) form.append(name, new Blob([content]), fileName);
    return [url, { method: step.method, headers, body: form }];
  }
  if (step.body !== undefined) headers['content-type'] = 'application/json';
  return [url, { method: step.method, headers, body: step.body === undefined ? undefined : JSON.stringify(step.body) }];
}

it('answers every scenario as the reference server does, but for the differences the README declares', async () => {
  const headers = comparedHeaders(bundle);
  const origins = [server.url, mswOrigin];
  const found: { key: string; what: string[] }[] = [];
  let steps = 0;
  const statuses = new Map<number, number>();
  const send = async (step: Step): Promise<Answer> => {
    steps += 1;
    const fromServer = await answerOf(await fetch(...request(server.baseUrl, step)));
    const fromMsw = await answerOf(await fetch(...request(`${mswOrigin}/v4`, step)));
    const what = differences(fromServer, fromMsw, headers, origins);
    if (what.length) found.push({ key: step.key, what });
    statuses.set(fromServer.status, (statuses.get(fromServer.status) ?? 0) + 1);
    return fromServer;
  };

  const scenarios = new Scenarios(bundle, send);
  await scenarios.emptyReads();
  await scenarios.creates();
  await scenarios.refusals();
  await scenarios.rest();
  const paged = scenarios.ops.find((op) => op.operationId === 'createVolume')!;
  const page2 = await scenarios.pages(paged, 26);
  await scenarios.deleteAll();
  await scenarios.emptyReads();

  const declared = declaredDifferences();
  const undeclared = found.filter(({ key }) => !declared.some((d) => key.startsWith(d)));
  const stale = declared.filter((d) => !found.some(({ key }) => key.startsWith(d)));
  console.log(`parity: ${steps} steps over ${scenarios.covered.size} operations (server statuses ${[...statuses].sort().map(([s, n]) => `${s}×${n}`).join(', ')}); ${found.length} differing (${found.length - undeclared.length} declared in the README)`);
  expect(undeclared.map(({ key, what }) => `${key}: ${what.join('; ')}`)).toEqual([]);
  expect(stale, 'declared in the README, never seen').toEqual([]);
  expect(scenarios.covered.size).toBe(scenarios.ops.length);
  expect(page2.body).toMatchObject({ page: 2, pages: 2 });
}, 180_000);
