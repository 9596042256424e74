// The mock serves the bundle under the API's base path, with Prism's --errors on: examples for
// valid requests, the operation's 400 for invalid ones, Prefer headers honoured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createSchemaViews } from '@cloudapi/spec/schema-views';
import { bodiesOf, mediaExamples, operations, parameterExamples } from '@cloudapi/spec/walk';
import { basePathOf, deriveMockDocument } from '../src/derive.mjs';
import { startMock } from '../src/index.mjs';

const require = createRequire(import.meta.url);
const bundle = JSON.parse(readFileSync(require.resolve('@cloudapi/spec/openapi.json'), 'utf8'));
const auth = { authorization: 'Bearer mock-token' };
// Validation codes of rules that relate several fields, which Prism's generator does not follow.
const CROSS_FIELD = ['if', 'then', 'else', 'not', 'oneOf', 'anyOf', 'contains', 'maxContains', 'minContains', 'dependentRequired', 'dependentSchemas'];

/** A valid request for an operation, from the examples of its parameters and body. */
function requestFor(op, baseUrl) {
  const example = (p) => parameterExamples(bundle, p)[0];
  let path = op.path;
  const query = new URLSearchParams();
  for (const p of op.parameters) {
    const value = example(p);
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(value));
    else if (p.in === 'query' && p.required) query.set(p.name, value);
  }
  const init = { method: op.method.toUpperCase(), headers: { ...auth } };
  const request = bodiesOf(bundle, op).find((b) => b.kind === 'request');
  if (request) {
    const value = mediaExamples(bundle, request.media)[0].value;
    if (request.mediaType === 'multipart/form-data') {
      const form = new FormData();
      for (const [name, part] of Object.entries(value)) form.append(name, new Blob([String(part)]), `${name}.txt`);
      init.body = form;
    } else {
      init.headers['content-type'] = request.mediaType;
      init.body = JSON.stringify(value);
    }
  }
  return { url: `${baseUrl}${path}${query.size ? `?${query}` : ''}`, init };
}
let mock;

beforeAll(async () => { mock = await startMock({ port: 0 }); }, 60_000);
afterAll(async () => { await mock?.stop(); });

describe('deriveMockDocument', () => {
  it('puts every path under the base path of the server URL and keeps the rest', () => {
    const derived = deriveMockDocument(bundle);
    expect(basePathOf(bundle)).toBe('/v4');
    expect(Object.keys(derived.paths)).toEqual(Object.keys(bundle.paths).map((p) => `/v4${p}`));
    expect(derived.components).toBe(bundle.components);
    expect(deriveMockDocument({ ...bundle, servers: [{ url: 'https://x.example/api/v9/' }] }).paths).toHaveProperty('/api/v9/regions');
  });
});

describe('the Prism mock', () => {
  it('listens on 127.0.0.1 and answers under /v4 with the example', async () => {
    expect(mock.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v4$/);
    const response = await fetch(`${mock.baseUrl}/regions`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const body = await response.json();
    expect(body.data.map((r) => r.id)).toContain('us-east');
  });

  it('does not serve paths without the base path', async () => {
    const response = await fetch(`${mock.url}/regions`);
    expect(response.status).toBe(404);
  });

  it('addresses image ids with their slash percent-encoded', async () => {
    const encoded = await fetch(`${mock.baseUrl}/images/${encodeURIComponent('compute/debian11')}`, { headers: { ...auth, prefer: 'example=public' } });
    expect(encoded.status).toBe(200);
    expect((await encoded.json()).id).toBe('compute/debian11');
    const invalid = await fetch(`${mock.baseUrl}/images/debian11`, { headers: auth });
    expect(invalid.status).toBe(400);
  });

  it('answers an invalid body with the 400 error body', async () => {
    const response = await fetch(`${mock.baseUrl}/volumes`, {
      method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ label: 'data', config_id: 1 }),
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.errors[0]).toHaveProperty('reason');
  });

  it('refuses a secured operation without a token', async () => {
    const response = await fetch(`${mock.baseUrl}/volumes`);
    expect(response.status).toBe(401);
  });

  it('honours Prefer: code= and Prefer: example=', async () => {
    const notFound = await fetch(`${mock.baseUrl}/volumes/12345`, { headers: { ...auth, prefer: 'code=404' } });
    expect(notFound.status).toBe(404);
    expect((await notFound.json()).errors[0].reason).toBe('Not found');
    const attached = await fetch(`${mock.baseUrl}/volumes`, {
      method: 'POST', headers: { ...auth, 'content-type': 'application/json', prefer: 'example=volume' },
      body: JSON.stringify({ label: 'data', region: 'us-east' }),
    });
    expect(attached.status).toBe(200);
    expect((await attached.json()).label).toBe('backup-data');
  });

  it('generates data for every operation in dynamic mode, repeatably with a seed', async () => {
    const dynamic = await startMock({ port: 0, dynamic: true, seed: 42 });
    try {
      const views = createSchemaViews(bundle);
      const outcomes = [];
      for (const op of operations(bundle)) {
        const { url, init } = requestFor(op, dynamic.baseUrl);
        const response = await fetch(url, init);
        const where = `${op.method.toUpperCase()} ${op.path}`;
        const success = Object.keys(op.operation.responses).find((code) => /^2/.test(code));
        expect(response.status, `${where} answered ${response.status}: ${await response.clone().text()}`).toBe(Number(success));
        const body = await response.json();
        const schemaPointer = bodiesOf(bundle, op).find((b) => b.kind === 'response' && b.status === success).schemaPointer;
        const valid = views.validate('response', schemaPointer, body).valid;
        // Prism's generator ignores cross-field rules; it must then say which one it missed.
        // Prism cuts a long list short after "Too many violations! " (the tagged-object union of
        // four resources makes one): read the codes it still names.
        const header = response.headers.get('sl-violations') || '[]';
        const violations = header.startsWith('[') ? JSON.parse(header).map((v) => v.code) : [...header.matchAll(/"code":"([^"]+)"/g)].map((m) => m[1]);
        if (!valid) expect(violations.some((code) => CROSS_FIELD.includes(code)), `${where}: invalid body, violations ${violations}`).toBe(true);
        outcomes.push(valid);
      }
      // Most schemas have no cross-field rule in their responses: their data is simply valid.
      expect(outcomes.filter(Boolean).length).toBeGreaterThan(outcomes.length * 0.8);
      const again = await startMock({ port: 0, dynamic: true, seed: 42 });
      try {
        const first = await (await fetch(`${dynamic.baseUrl}/regions`)).json();
        const second = await (await fetch(`${again.baseUrl}/regions`)).json();
        expect(second).toEqual(first);
      } finally {
        await again.stop();
      }
    } finally {
      await dynamic.stop();
    }
  }, 120_000);

  it('stops Prism: the port no longer answers', async () => {
    const extra = await startMock({ port: 0 });
    await extra.stop();
    await expect(fetch(`${extra.baseUrl}/regions`)).rejects.toThrow();
  }, 60_000);
});
