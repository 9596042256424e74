// The Postman collection as a user runs it: newman (Postman's command-line runner) sends every
// request of dist/cloudapi.postman_collection.json, as built, to the mock and to the reference
// server, both on 127.0.0.1 with a free port. The attachment request uploads `attachment.txt`
// from newman's working directory (a scratch directory here).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import newman from 'newman';
import { startMock } from '@cloudapi/mock';
import { startServer } from '@cloudapi/server';
import { afterAll, describe, expect, it } from 'vitest';
import { ATTACHMENT_FILE, DELETES_FOLDER } from '../src/postman-flow.mjs';
import { POSTMAN_COLLECTION_FILE } from '../src/postman.mjs';
import { docsDistDir } from '../src/serve.mjs';

const collection = JSON.parse(readFileSync(path.join(docsDistDir, POSTMAN_COLLECTION_FILE), 'utf8'));
const scratch = mkdtempSync(path.join(os.tmpdir(), 'newman-'));
writeFileSync(path.join(scratch, ATTACHMENT_FILE), 'The log of the failed boot.\n');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs the collection against `baseUrl`: [{ name, method, url, status, body }] in run order. */
async function run(baseUrl, token) {
  // Newman's summary keeps one execution per item, overwritten by the requests its scripts send
  // (pm.sendRequest): the item's own request is read from the `request` events instead, the
  // first to the API with the item's method (item names are unique; a script's requests follow
  // it, or go elsewhere, or use another method).
  const executions = new Map();
  const summary = await new Promise((resolve, reject) => {
    newman.run({
      collection: structuredClone(collection),
      envVar: [{ key: 'baseUrl', value: baseUrl }, { key: 'bearerToken', value: token }],
      reporters: [], workingDir: scratch, timeoutRequest: 10_000, timeout: 120_000,
    }, (error, result) => (error ? reject(error) : resolve(result))).on('request', (error, args) => {
      const { item, request, response } = args;
      if (executions.has(item.name) || request.method !== methodOf.get(item.name) || !request.url.toString().startsWith(baseUrl)) return;
      executions.set(item.name, { name: item.name, method: request.method, url: request.url.toString(), status: response?.code ?? 0, body: response?.stream?.toString().slice(0, 300) ?? String(error) });
    });
  });
  if (summary.run.failures.some((f) => f.error?.name === 'ScriptError')) throw new Error(`a collection script failed: ${summary.run.failures.map((f) => f.error.message).join('; ')}`);
  return [...executions.values()];
}
const allRequests = (items) => items.flatMap((item) => (item.item ? allRequests(item.item) : [item]));
const methodOf = new Map(allRequests(collection.item).map((item) => [item.name, item.request.method]));
const pathOf = new Map(allRequests(collection.item).map((item) => [item.name, new RegExp(`/${item.request.url.path.map((segment) => (segment.startsWith(':') ? '[^/?]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}(\\?|$)`)]));
/** Each recorded execution is its item's own request (its method and path), not a script's. */
const ownRequests = (executions) => executions.filter((x) => !pathOf.get(x.name).test(x.url) || x.method !== methodOf.get(x.name)).map((x) => `${x.name}: ${x.method} ${x.url}`);
const notSuccesses = (executions) => executions.filter((x) => x.status < 200 || x.status > 299).map((x) => `${x.status} ${x.method} ${x.url}: ${x.body}`);
const requestCount = (items) => items.reduce((n, item) => n + (item.item ? requestCount(item.item) : 1), 0);

// The two runs are independent (their own target each; the scratch folder is only read): they run
// at the same time, each mostly waiting on its target's answers, each with its own `expect`.
describe.concurrent('the Postman collection under newman', () => {
  it('against the mock: every request answers 2xx, ids with a slash percent-encoded in the path', async ({ expect }) => {
    const mock = await startMock({ port: 0 });
    try {
      const executions = await run(mock.baseUrl, 'mock-token');
      expect(executions.length).toBe(requestCount(collection.item));
      expect(ownRequests(executions)).toEqual([]);
      expect(notSuccesses(executions)).toEqual([]);
      const urls = executions.map((x) => x.url);
      expect(urls.filter((u) => /\/images\/private%2F\d+/.test(u)).length).toBe(3);
      expect(urls).toContain(`${mock.baseUrl}/compute/kernels/compute%2Flatest-64bit`);
      expect(urls.some((u) => /\/images\/private\/|\/kernels\/compute\//.test(u))).toBe(false);
    } finally {
      await mock.stop();
    }
  }, 120_000);

  it('against the reference server: creates run first, their ids reach the requests that follow, deletes run last', async ({ expect }) => {
    const server = await startServer({ port: 0, host: '127.0.0.1', dataDir: path.join(scratch, 'data'), transitionMs: 0, logLevel: 'warn' });
    try {
      // No operation creates a managed issue: the service records one for a ticket opened about
      // a managed service. The collection's list of issues then finds it.
      const opened = await fetch(`${server.baseUrl}/support/tickets`, {
        method: 'POST', headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ summary: 'Shop is down', description: 'The shop answers 502.', managed_issue: true }),
      });
      expect(opened.status, await opened.clone().text()).toBe(200);
      const executions = await run(server.baseUrl, server.token);
      expect(executions.length).toBe(requestCount(collection.item));
      expect(ownRequests(executions)).toEqual([]);
      expect(executions.find((x) => x.name === 'Get a managed issue')?.status).toBe(200);
      const deletes = collection.item.at(-1);
      expect(deletes.name).toBe(DELETES_FOLDER);
      expect(executions.slice(-deletes.item.length).map((x) => x.name)).toEqual(deletes.item.map((item) => item.name));
      expect(executions.filter((x) => x.method === 'DELETE').length).toBe(deletes.item.filter((item) => item.request.method === 'DELETE').length);
      expect(executions.slice(0, collection.item[0].item.length).map((x) => x.name)).toEqual(collection.item[0].item.map((item) => item.name));
      // The server numbers its objects from 1; the examples' ids (12345, 11223, ...) are not its.
      const ids = executions.filter((x) => ['Create a volume', 'Clone a volume'].includes(x.name) && x.status === 200).map((x) => String(JSON.parse(x.body).id));
      expect(ids).toHaveLength(2);
      const volumeRequests = executions.filter((x) => /\/volumes\/[^/?]+/.test(x.url));
      expect(volumeRequests.length).toBeGreaterThan(5);
      for (const x of volumeRequests) expect(ids, `${x.name} ${x.url}`).toContain(x.url.match(/\/volumes\/([^/?]+)/)[1]);
      const answered = executions.filter((x) => x.status >= 200 && x.status < 300).length;
      console.log(`newman against the reference server: ${answered}/${executions.length} requests 2xx; the others:\n${notSuccesses(executions).join('\n')}`);
      expect(notSuccesses(executions)).toEqual([]);
      // Every create whose body names no other object succeeds, and every read of what it made.
      for (const name of ['Create a volume', 'Create a domain', 'Create a balancer', 'Create an access key', 'Create a compute instance', 'Create a managed contact', 'Create a bucket']) {
        const x = executions.find((e) => e.name === name);
        expect(x?.status, `${name}: ${x?.body}`).toBe(200);
      }
    } finally {
      await server.close();
    }
  }, 180_000);
});
