// The Postman collection beside the page: format v2.1, loadable by Postman's own collection SDK
// (postman-collection, what Postman's runtimes load collections with), one request per operation
// of the bundle with its method, path, example body and the bearer token where the operation is
// secured.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Collection } from 'postman-collection';
import { loadBundle } from '@cloudapi/spec/bundle';
import { operations } from '@cloudapi/spec/walk';
import { describe, expect, it } from 'vitest';
import { CREATES_FOLDER, DELETES_FOLDER } from '../src/postman-flow.mjs';
import { POSTMAN_COLLECTION_FILE, POSTMAN_SCHEMA_V21, postmanCollection } from '../src/postman.mjs';
import { docsDistDir } from '../src/serve.mjs';

const require = createRequire(import.meta.url);
const bundle = loadBundle();
const json = JSON.parse(readFileSync(path.join(docsDistDir, POSTMAN_COLLECTION_FILE), 'utf8'));

/** Every request of a collection as `METHOD /path/:param`, with the SDK's view of it. */
function requestsOf(collection) {
  const requests = new Map();
  collection.forEachItem((item) => {
    const { method, url } = item.request;
    requests.set(`${method} /${url.path.join('/')}`, item);
  });
  return requests;
}

const operationKey = ({ method, path: template }) => `${method.toUpperCase()} ${template.replace(/\{(\w+)\}/g, ':$1')}`;

describe('the Postman collection', () => {
  const collection = new Collection(json);
  const requests = requestsOf(collection);

  it('is format v2.1, named and versioned after the API', () => {
    expect(json.info.schema).toBe(POSTMAN_SCHEMA_V21);
    expect(json.info).toMatchObject({ name: bundle.info.title, version: bundle.info.version });
    expect(json.info._postman_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('loads into Postman\'s collection SDK and comes back out unchanged in what a request is', () => {
    const again = requestsOf(new Collection(collection.toJSON()));
    expect([...again.keys()].sort()).toEqual([...requests.keys()].sort());
    for (const [key, item] of requests) expect(again.get(key).request.url.toString(), key).toBe(item.request.url.toString());
  });

  it('has one request per operation of the bundle: creates in a first folder, then a folder per tag, every delete in a last folder', () => {
    const expected = [...operations(bundle)].map(operationKey).sort();
    expect(expected.length).toBeGreaterThan(100);
    expect([...requests.keys()].sort()).toEqual(expected);
    const last = json.item.at(-1);
    expect(last.name).toBe(DELETES_FOLDER);
    const deletes = expected.filter((key) => key.startsWith('DELETE '));
    expect(last.item.filter((item) => item.request.method === 'DELETE')).toHaveLength(deletes.length);
    const names = last.item.map((item) => item.name);
    expect(names.at(-1)).toBe('Cancel Object Storage');
    // Actions that end or replace what others read run just before the delete of their object.
    expect(names.slice(names.indexOf('Restore a backup to an instance'), names.indexOf('Delete a compute instance') + 1)).toEqual(['Restore a backup to an instance', 'Cancel backups of an instance', 'Delete a compute instance']);
    expect(names.indexOf('Rebuild a config and its nodes')).toBe(names.indexOf('Delete a config of a balancer') - 1);
    expect(names.indexOf('Delete a node of a config')).toBeLessThan(names.indexOf('Rebuild a config and its nodes'));
    const first = json.item[0];
    expect(first.name).toBe(CREATES_FOLDER);
    expect(first.item.length).toBeGreaterThan(15);
    expect(first.item.every((item) => item.request.method === 'POST' && item.event?.some((e) => e.listen === 'test'))).toBe(true);
    const inFirstOrLast = new Set([...first.item, ...last.item].map((item) => `${item.request.method} /${item.request.url.path.join('/')}`));
    const tagged = [...operations(bundle)].filter((op) => !inFirstOrLast.has(operationKey(op))).flatMap(({ operation }) => operation.tags);
    expect(json.item.slice(1, -1).map((folder) => folder.name).sort()).toEqual([...new Set(tagged)].sort());
  });

  it('sends to {{baseUrl}}, which defaults to the spec\'s server, with the bearer token on secured operations', () => {
    const variables = Object.fromEntries(json.variable.map(({ key, value }) => [key, value]));
    expect(variables.baseUrl).toBe(bundle.servers[0].url);
    expect(variables).toHaveProperty('bearerToken', '');
    for (const op of operations(bundle)) {
      const item = requests.get(operationKey(op));
      expect(item.request.url.toString(), operationKey(op)).toMatch(/^\{\{baseUrl\}\}\//);
      const secured = (op.operation.security ?? bundle.security ?? []).some((requirement) => Object.keys(requirement).length > 0);
      const auth = item.request.auth?.toJSON();
      if (secured) expect(auth, operationKey(op)).toMatchObject({ type: 'bearer', bearer: [{ key: 'token', value: '{{bearerToken}}' }] });
      else expect(auth?.type ?? 'noauth', operationKey(op)).toBe('noauth');
    }
  });

  it('keeps each list\'s X-Filter in its request, disabled, filled with the spec\'s example for a reader to turn on', () => {
    let lists = 0;
    for (const op of operations(bundle)) {
      const filter = op.parameters.find((p) => p.name === 'X-Filter');
      if (!filter) continue;
      lists += 1;
      const header = requests.get(operationKey(op)).request.headers.toJSON().find((h) => h.key === 'X-Filter');
      expect(header, operationKey(op)).toMatchObject({ disabled: true, value: filter.schema.examples[0] });
    }
    expect(lists).toBeGreaterThan(5);
  });

  it('carries a JSON example body on every operation whose request body is JSON', () => {
    for (const op of operations(bundle)) {
      const media = op.operation.requestBody?.content?.['application/json'] ?? (op.operation.requestBody?.$ref && 'ref');
      if (!media) continue;
      const body = requests.get(operationKey(op)).request.body;
      expect(body?.mode, operationKey(op)).toBe('raw');
      // Ids carried from creates are `{{variables}}`, JSON once the runner fills them in.
      const values = Object.fromEntries(json.variable.map(({ key, value }) => [key, value]));
      expect(() => JSON.parse(body.raw.replace(/\{\{(\w+)\}\}/g, (_, key) => values[key])), operationKey(op)).not.toThrow();
    }
  });

  it('is what the converter makes of the bundle\'s 3.0 edition, the same on every build', async () => {
    const again = await postmanCollection(readFileSync(require.resolve('@cloudapi/spec/openapi.3.0.json'), 'utf8'));
    expect(again.info._postman_id).toBe(json.info._postman_id);
    expect(again.item.length).toBe(json.item.length);
  }, 60_000);

  it('would be caught missing an operation (negative control)', () => {
    const broken = structuredClone(json);
    broken.item[0].item.pop();
    expect(requestsOf(new Collection(broken)).size).toBe(requests.size - 1);
  });
});
