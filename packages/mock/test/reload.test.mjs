// A rewritten mock document is served without a restart: the watcher reloads it when the build
// renames a new one into place, `reload()` does it on demand and resolves once it is served, a
// broken document leaves the previous one served, and no request fails meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mockDocumentPath, startMock } from '../src/index.mjs';

let dir;
let document;
let mock;
const logged = [];
const original = JSON.parse(readFileSync(mockDocumentPath, 'utf8'));
const operationCount = Object.values(original.paths).reduce((n, item) => n + ['get', 'put', 'post', 'delete', 'patch'].filter((m) => item[m]).length, 0);

/** Writes the document as the build does: a temporary file renamed over the old one. */
function rewrite(content) {
  writeFileSync(`${document}.tmp`, typeof content === 'string' ? content : JSON.stringify(content));
  renameSync(`${document}.tmp`, document);
}

/** The original document with the first region renamed and a new path. */
function changed(regionId) {
  const next = structuredClone(original);
  next.components.examples.RegionList.value.data[0].id = regionId;
  next.paths['/v4/regions-copy'] = next.paths['/v4/regions'];
  return next;
}

async function firstRegion() {
  return (await (await fetch(`${mock.baseUrl}/regions`)).json()).data[0].id;
}

async function until(predicate, timeoutMs = 60_000) {
  const started = Date.now();
  while (!(await predicate())) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms; log:\n${logged.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'cloudapi-mock-reload-'));
  document = path.join(dir, 'openapi.mock.json');
  copyFileSync(mockDocumentPath, document);
  mock = await startMock({ port: 0, document, log: (line) => logged.push(line) });
}, 60_000);
afterAll(async () => {
  await mock?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a rewritten mock document', () => {
  it('is served without a restart once the build renames it into place, new paths included', async () => {
    expect(await firstRegion()).toBe('us-east');
    const pid = mock.prismPid;
    expect((await fetch(`${mock.baseUrl}/regions-copy`)).status).toBe(404);
    rewrite(changed('watched-1'));
    await until(async () => (await firstRegion()) === 'watched-1');
    expect(logged.join('\n')).toMatch(new RegExp(`↻ mock reloaded: ${operationCount + 1} operations, served \\d+ ms after the change was seen`));
    expect((await fetch(`${mock.baseUrl}/regions-copy`)).status).toBe(200);
    // The front layer's routes are the new ones too: the new path answers 405 for a method it lacks.
    expect((await fetch(`${mock.baseUrl}/regions-copy`, { method: 'DELETE' })).headers.get('allow')).toBe('GET, HEAD');
    expect(mock.prismPid).toBe(pid);
  }, 90_000);

  it('is served as soon as reload() resolves, and no request fails while it reloads', async () => {
    const answers = [];
    let running = true;
    const traffic = (async () => {
      while (running) answers.push((await fetch(`${mock.baseUrl}/regions`)).status);
    })();
    rewrite(changed('on-demand-2'));
    await mock.reload();
    expect(await firstRegion()).toBe('on-demand-2');
    running = false;
    await traffic;
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.filter((status) => status !== 200)).toEqual([]);
  }, 90_000);

  it('that is broken leaves the previous one served, and says why', async () => {
    const from = logged.length;
    rewrite('{"openapi": "3.1.0", "paths": ');
    await expect(mock.reload()).rejects.toThrow(/JSON/);
    await until(async () => logged.slice(from).some((line) => /✖ mock reload failed, still serving the previous document/.test(line)));
    expect(await firstRegion()).toBe('on-demand-2');
  }, 90_000);
});
