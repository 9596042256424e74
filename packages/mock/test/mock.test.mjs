// The mock serves the bundle under the API's base path, with Prism's --errors on: examples for
// valid requests, a 400 naming the fields for invalid ones, Prefer headers honoured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basePathOf, deriveMockDocument } from '../src/derive.mjs';
import { startMock } from '../src/index.mjs';
import { auth, bundle } from './support/spec.mjs';

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

  it('answers an invalid body with a 400 naming the field', async () => {
    const response = await fetch(`${mock.baseUrl}/volumes`, {
      method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ label: 'data', region: 'us-east', config_id: 1 }),
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.errors).toEqual([{ field: 'compute_id', reason: 'This field is required when config_id is present.' }]);
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

  it('stops the front layer and Prism: neither port answers, the Prism process is gone', async () => {
    const extra = await startMock({ port: 0 });
    const { prismUrl, prismPid } = extra;
    expect((await fetch(`${prismUrl}/v4/regions`)).status).toBe(200);
    await extra.stop();
    await expect(fetch(`${extra.baseUrl}/regions`)).rejects.toThrow();
    await expect(fetch(`${prismUrl}/v4/regions`)).rejects.toThrow();
    expect(() => process.kill(prismPid, 0)).toThrow(/ESRCH/);
  }, 60_000);
});
