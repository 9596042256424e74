// The operations the engine gives Prism's router for a request (src/routing.mjs): only those
// whose path matches it, remembered per path. Prism's router must decide exactly as it does over
// every operation of the mock document: the same operation, or the same error, for a request to
// each operation (its examples' values, percent-encoded ids), a wrong method, an unknown path, a
// trailing slash, and a request naming a server.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { operations as walk } from '@cloudapi/spec/walk';
import { mockDocumentPath } from '../src/index.mjs';
import { MAX_PATHS, routingOf } from '../src/routing.mjs';
import { requestFor } from './support/spec.mjs';

const require = createRequire(import.meta.url);
const { getHttpOperationsFromSpec } = require('@stoplight/prism-http');
const route = require('@stoplight/prism-http/dist/router/index.js').default;
const document = JSON.parse(readFileSync(mockDocumentPath, 'utf8'));
const operations = await getHttpOperationsFromSpec(mockDocumentPath);

/** Prism's decision, comparable: the operation it chose (by identity) or its error's type. */
function decision(resources, method, path, baseUrl) {
  const result = route({ resources, input: { method, url: { path, baseUrl }, headers: {} } });
  return result._tag === 'Right' ? { operation: result.right } : { error: result.left.name ?? result.left.message };
}

const requests = [
  ...[...walk(document)].map((op) => {
    const { url } = requestFor(op, 'http://mock');
    return [op.method, new URL(url).pathname];
  }),
  ['delete', '/v4/regions'],
  ['get', '/v4/no-such-thing'],
  ['get', '/v4/regions/'],
  ['get', '/v4'],
  ['get', '/'],
  ['get', '/v4/images/compute%2Fdebian11'],
  ['get', '/v4/images/compute%2'],
  ['head', '/v4/volumes/12345'],
];

describe('the operations Prism is given for a request', () => {
  it('lead Prism to the same operation, or the same error, as all of them would', () => {
    const resourcesFor = routingOf(operations);
    expect(requests.length).toBeGreaterThan(operations.length);
    for (const [method, path] of requests) {
      const all = decision(operations, method, path);
      expect(decision(resourcesFor(path), method, path), `${method} ${path}`).toEqual(all);
      // Asked again, from what it remembers.
      expect(decision(resourcesFor(path), method, path), `${method} ${path} (again)`).toEqual(all);
    }
    // A request naming a server is decided over every operation's servers.
    for (const baseUrl of ['http://127.0.0.1:1', 'https://api.example.com/v4']) {
      expect(decision(resourcesFor('/v4/regions', baseUrl), 'get', '/v4/regions', baseUrl)).toEqual(decision(operations, 'get', '/v4/regions', baseUrl));
    }
  });

  it('keep Prism\'s choice among operations alike, and its verdict on servers, where a document has them', () => {
    // Two operations a path matches alike (Prism takes the one its sort leaves first), and servers
    // on one operation only (a request naming a server is then refused for another reason).
    const made = [
      { id: 'a', method: 'get', path: '/t/{a}', servers: [] },
      { id: 'b', method: 'get', path: '/t/{b}', servers: [] },
      { id: 'c', method: 'get', path: '/c', servers: [] },
      { id: 'd', method: 'get', path: '/d', servers: [{ url: 'http://127.0.0.1:1' }] },
    ];
    const resourcesFor = routingOf(made);
    for (const [path, baseUrl] of [['/t/1', undefined], ['/c', 'http://127.0.0.1:1'], ['/d', 'http://127.0.0.1:1']]) {
      const all = decision(made, 'get', path, baseUrl);
      expect(decision(resourcesFor(path, baseUrl), 'get', path, baseUrl), `${path} ${baseUrl}`).toEqual(all);
    }
  });

  it('are the few whose path matches, not all of them', () => {
    const resourcesFor = routingOf(operations);
    const given = resourcesFor('/v4/volumes/12345');
    expect(given.length).toBeGreaterThan(0);
    expect(given.length).toBeLessThan(10);
    expect(given.every((op) => op.path.split('/').length === 4)).toBe(true);
  });

  it('are remembered for a bounded number of paths', () => {
    let matched = 0;
    const counting = operations.slice(0, 3).map((op) => ({ ...op, get path() { matched += 1; return op.path; } }));
    const resourcesFor = routingOf(counting);
    resourcesFor('/v4/volumes/1');
    const once = matched;
    resourcesFor('/v4/volumes/1');
    expect(matched).toBe(once);
    for (let id = 2; id <= MAX_PATHS + 1; id++) resourcesFor(`/v4/volumes/${id}`);
    // The first path was forgotten when the table filled up, so it is matched again.
    const before = matched;
    resourcesFor('/v4/volumes/1');
    expect(matched).toBeGreaterThan(before);
  });
});
