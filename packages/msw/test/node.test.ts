// The handlers with msw/node in Vitest, called through @cloudapi/client as a consumer's code
// would: examples (named ones on request), validation naming the field, 401 without a token and
// typed overrides. The stateful mode has its own file (stateful.test.ts).
import { setupServer } from 'msw/node';
import { createClient } from '@cloudapi/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers, createHttp } from '../src/index.js';
import { bundle } from '../src/bundle.js';

const baseUrl = 'https://api.cloud.test/v4';
const handlers = createHandlers({ baseUrl });
const server = setupServer(...handlers);
const http = createHttp({ baseUrl });
const client = createClient({ baseUrl, token: 'test-token', retry: false });
const anonymous = createClient({ baseUrl, retry: false });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const example = (path: string, method: string, name?: string) => {
  const media = bundle.paths[path][method].responses['200'].content['application/json'];
  const ref = name ? media.examples[name] : Object.values<any>(media.examples)[0];
  return ref.$ref ? bundle.components.examples[ref.$ref.split('/').pop()].value : ref.value;
};

describe('createHandlers', () => {
  it('has a handler for every operation of the bundle', () => {
    const count = Object.values<any>(bundle.paths).reduce((n, item) => n + ['get', 'put', 'post', 'delete', 'patch'].filter((m) => item[m]).length, 0);
    expect(handlers).toHaveLength(count);
    expect(count).toBeGreaterThan(100);
  });

  it('answers the success example, and a named one on `Prefer: example=`', async () => {
    const { data } = await client.GET('/volumes/{volumeId}', { params: { path: { volumeId: 12345 } } });
    expect(data).toEqual(example('/volumes/{volumeId}', 'get'));
    const slave = await client.GET('/domains/{domainId}', { params: { path: { domainId: 1 } }, headers: { Prefer: 'example=slave' } });
    expect(slave.data).toEqual(example('/domains/{domainId}', 'get', 'slave'));
    expect(slave.data!.type).toBe('slave');
    const unknown = await client.GET('/domains/{domainId}', { params: { path: { domainId: 1 } }, headers: { Prefer: 'example=nope' } });
    expect(unknown.error?.status).toBe(400);
    expect(unknown.error?.errors[0]).toMatchObject({ field: 'Prefer', reason: expect.stringMatching(/master \(200\), slave \(200\)/) });
  });

  it('answers a declared error status on `Prefer: code=`', async () => {
    const { error } = await client.GET('/volumes/{volumeId}', { params: { path: { volumeId: 1 } }, headers: { Prefer: 'code=404' } });
    expect(error?.status).toBe(404);
    expect(error?.errors.length).toBeGreaterThan(0);
  });

  it('refuses a body, query or path parameter the spec does not allow with 400 naming the field', async () => {
    const body = await client.POST('/volumes', { body: { label: 'data', region: 'us-east', size: 'big' as unknown as number } });
    expect(body.error?.status).toBe(400);
    expect(body.error?.errors).toContainEqual({ field: 'size', reason: expect.stringMatching(/^size must be of type integer/) });
    const query = await client.GET('/volumes', { params: { query: { page_size: 5 } } });
    expect(query.error?.errors).toContainEqual({ field: 'page_size', reason: 'query parameter page_size must be at least 25' });
    const path = await fetch(`${baseUrl}/volumes/not-a-number`, { headers: { authorization: 'Bearer t' } });
    expect(path.status).toBe(400);
    expect((await path.json()).errors[0].field).toBe('volumeId');
    const readOnly = await client.POST('/volumes', { body: { label: 'data', region: 'us-east', id: 5 } as never });
    expect(readOnly.error?.errors.map((e) => e.field)).toContain('id');
  });

  it('refuses a secured operation without a bearer token (401), and serves a public one', async () => {
    const { error, response } = await anonymous.GET('/volumes');
    expect(error?.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(error?.errors[0]?.reason).toMatch(/listVolumes needs a token/);
    const regions = await anonymous.GET('/regions');
    expect(regions.data?.data.length).toBeGreaterThan(0);
  });
});

describe('createHttp', () => {
  it('overrides one operation with typed params, and lets the generated handler answer when it returns nothing', async () => {
    server.use(http.get('/volumes/{volumeId}', ({ params }) => {
      if (params.volumeId === 7) return undefined;
      return { ...example('/volumes/{volumeId}', 'get'), id: params.volumeId, label: `volume-${params.volumeId + 1}` };
    }));
    const { data } = await client.GET('/volumes/{volumeId}', { params: { path: { volumeId: 41 } } });
    expect(data).toMatchObject({ id: 41, label: 'volume-42' });
    const fallThrough = await client.GET('/volumes/{volumeId}', { params: { path: { volumeId: 7 } } });
    expect(fallThrough.data).toEqual(example('/volumes/{volumeId}', 'get'));
  });

  it('gives the resolver the typed query (coerced) and body, and still validates first', async () => {
    const seen: unknown[] = [];
    server.use(
      http.get('/volumes', ({ query }) => { seen.push(query); return { data: [], page: query.page ?? 1, pages: 1, results: 0 }; }),
      http.post('/volumes', ({ body }) => { seen.push(body); return { ...example('/volumes/{volumeId}', 'get'), label: body.label }; }),
    );
    expect((await client.GET('/volumes', { params: { query: { page: 2 } } })).data).toEqual({ data: [], page: 2, pages: 1, results: 0 });
    expect((await client.POST('/volumes', { body: { label: 'mine', region: 'us-east' } })).data?.label).toBe('mine');
    expect(seen[0]).toEqual({ page: 2 }); // a number: coerced from the query string
    expect(seen[1]).toMatchObject({ label: 'mine', region: 'us-east', size: 20 }); // the body's defaults filled in
    const refused = await client.POST('/volumes', { body: { label: '', region: 'us-east' } });
    expect(refused.error?.errors[0]?.field).toBe('label');
    expect(seen).toHaveLength(2);
  });

  it('refuses a path that is not the spec\'s at run time too', () => {
    expect(() => http.get('/volumes/{nope}' as never, () => undefined)).toThrow(/GET \/volumes\/\{nope\} is not an operation of the API/);
  });
});
