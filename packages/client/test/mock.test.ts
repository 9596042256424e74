// The client against the real Prism mock serving the bundle (started here, stopped after): every
// operation of the bundle through the typed methods, the token, errors, image ids, pagination and
// the upload helper.
import { startMock } from '@cloudapi/mock';
import { bodiesOf, mediaExamples, operations, parameterExamples, type WalkedOperation } from '@cloudapi/spec/walk';
import { createSchemaViews } from '@cloudapi/spec/schema-views';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createClient, isApiError, unwrap, type CloudApiClient } from '../src/index.js';
import { loadBundle, startServer, type LocalServer } from './helpers.js';

const bundle = loadBundle();
const views = createSchemaViews(bundle);
const allOperations = [...operations(bundle)];

let mock: Awaited<ReturnType<typeof startMock>>;
let client: CloudApiClient;
const sent: Request[] = [];
const recordingFetch = (input: string | Request, init?: RequestInit) => {
  const request = new Request(input, init);
  sent.push(request.clone());
  return fetch(request);
};

beforeAll(async () => {
  mock = await startMock({ port: 0 });
  client = createClient({ baseUrl: mock.baseUrl, token: 'mock-token', fetch: recordingFetch, retry: false });
});
afterAll(async () => {
  await mock?.stop();
});

/** A value for a parameter: the best example the spec gives (see parameterExamples). */
function parameterValue(parameter: WalkedOperation['parameters'][number]): unknown {
  const [value] = parameterExamples(bundle, parameter);
  if (value === undefined) throw new Error(`parameter "${parameter.name}" has no example, default or enum: add an example to it in the spec`);
  return value;
}

function callOf(op: WalkedOperation) {
  const params: { path: Record<string, unknown>; query: Record<string, unknown> } = { path: {}, query: {} };
  for (const parameter of op.parameters) {
    if (parameter.in === 'path' || (parameter.in === 'query' && parameter.required)) params[parameter.in as 'path' | 'query'][parameter.name] = parameterValue(parameter);
  }
  const request = bodiesOf(bundle, op).find((b) => b.kind === 'request');
  const body = request ? mediaExamples(bundle, request.media)[0]?.value : undefined;
  const success = bodiesOf(bundle, op).find((b) => b.kind === 'response' && b.status?.startsWith('2'));
  return { params, body, success };
}

describe('every operation of the bundle, through the typed client against the mock', () => {
  it('covers the operations the bundle holds', () => {
    const count = Object.values(bundle.paths as Record<string, object>).reduce((n, item) => n + ['get', 'put', 'post', 'delete', 'patch'].filter((m) => m in item).length, 0);
    expect(allOperations.length).toBe(count);
    expect(count).toBeGreaterThan(0);
  });

  it.each(allOperations.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))('%s answers its success response', async (_, op) => {
    const { params, body, success } = callOf(op);
    const call = (client as unknown as Record<string, (path: string, init: object) => ReturnType<CloudApiClient['GET']>>)[op.method.toUpperCase()]!;
    const { data, error, response } = await call(op.path, { params, ...(body === undefined ? {} : { body }) });
    expect(error, error?.message).toBeUndefined();
    expect(String(response.status)).toBe(success?.status);
    if (success) {
      const { valid, errors } = views.validate('response', success.schemaPointer, data);
      expect(errors.map((e) => e.message), `${op.method.toUpperCase()} ${op.path} data`).toEqual([]);
      expect(valid).toBe(true);
    }
  });
});

describe('authentication', () => {
  it('sends the token as a bearer header, and a User-Agent', async () => {
    sent.length = 0;
    const { data } = await client.GET('/volumes/{volumeId}', { params: { path: { volumeId: 12345 } } });
    expect(data?.id).toBe(12345);
    expect(sent[0]!.headers.get('authorization')).toBe('Bearer mock-token');
    expect(sent[0]!.headers.get('user-agent')).toMatch(/^cloudapi-client\/\d+\.\d+\.\d+/);
  });

  it('asks a token function for each request', async () => {
    let calls = 0;
    const refreshing = createClient({ baseUrl: mock.baseUrl, token: async () => `token-${++calls}`, fetch: recordingFetch, userAgent: 'tests/1.0' });
    sent.length = 0;
    await refreshing.GET('/volumes');
    await refreshing.GET('/volumes');
    expect(sent.map((r) => r.headers.get('authorization'))).toEqual(['Bearer token-1', 'Bearer token-2']);
    expect(sent[0]!.headers.get('user-agent')).toBe('tests/1.0');
  });

  it('sends the client\'s headers, given as a Headers object too', async () => {
    const traced = createClient({ baseUrl: mock.baseUrl, token: 'mock-token', fetch: recordingFetch, headers: new Headers({ 'x-trace-id': 'abc' }) });
    sent.length = 0;
    await traced.GET('/regions');
    expect(sent[0]!.headers.get('x-trace-id')).toBe('abc');
    expect(sent[0]!.headers.get('user-agent')).toMatch(/^cloudapi-client\//);
  });

  it('sends no Authorization header without a token: a public operation works, a secured one is a 401 ApiError', async () => {
    const anonymous = createClient({ baseUrl: mock.baseUrl, fetch: recordingFetch });
    sent.length = 0;
    const regions = await anonymous.GET('/regions');
    expect(regions.error).toBeUndefined();
    expect(sent[0]!.headers.has('authorization')).toBe(false);
    const { data, error } = await anonymous.GET('/volumes');
    expect(data).toBeUndefined();
    expect(error).toBeInstanceOf(ApiError);
    expect(error!.status).toBe(401);
    expect(error!.errors[0]!.reason).toEqual(expect.any(String));
  });
});

describe('errors', () => {
  it('gives an ApiError with the status and the errors of the body (field and reason)', async () => {
    const { data, error, response } = await client.POST('/volumes', { body: { label: '' } });
    expect(data).toBeUndefined();
    expect(response.status).toBe(400);
    expect(isApiError(error)).toBe(true);
    expect(error).toMatchObject({ name: 'ApiError', status: 400, method: 'POST' });
    expect(error!.errors.length).toBeGreaterThan(0);
    for (const detail of error!.errors) expect(detail).toEqual({ reason: expect.any(String), ...(detail.field === undefined ? {} : { field: expect.any(String) }) });
    expect(error!.message).toContain('failed with 400');
  });

  it('unwrap returns the data or throws the ApiError', async () => {
    const volume = await unwrap(client.GET('/volumes/{volumeId}', { params: { path: { volumeId: 12345 } } }));
    expect(volume.label).toEqual(expect.any(String));
    await expect(unwrap(client.POST('/volumes', { body: { label: '' } }))).rejects.toMatchObject({ name: 'ApiError', status: 400 });
  });
});

describe('image ids', () => {
  it('addresses an id with a slash percent-encoded, as DECISIONS.md section 9 decided', async () => {
    sent.length = 0;
    const { data, error, response } = await client.GET('/images/{imageId}', { params: { path: { imageId: 'compute/debian11' } }, headers: { prefer: 'example=public' } });
    expect(error).toBeUndefined();
    expect(new URL(sent[0]!.url).pathname).toBe('/v4/images/compute%2Fdebian11');
    expect(response.status).toBe(200);
    expect(data!.id).toBe('compute/debian11');
  });

  it('gives the mock\'s 400 for an id without its prefix', async () => {
    const { error } = await client.DELETE('/images/{imageId}', { params: { path: { imageId: 'debian11' } } });
    expect(error?.status).toBe(400);
  });
});

describe('pagination against the mock', () => {
  it('collects every page of a list, sending page_size on each request', async () => {
    sent.length = 0;
    const volumes = await client.listAll('/volumes', { params: { query: { page_size: 25 } } });
    expect(volumes.length).toBeGreaterThan(0);
    expect(volumes.every((v) => typeof v.id === 'number')).toBe(true);
    expect(sent.length).toBeGreaterThan(0);
    for (const request of sent) expect(new URL(request.url).searchParams.get('page_size')).toBe('25');
  });

  it('walks a list with a path parameter', async () => {
    const tagged = [];
    for await (const entry of client.paginate('/tags/{label}', { params: { path: { label: 'production' } } })) tagged.push(entry.type);
    expect(tagged.length).toBeGreaterThan(0);
  });

  it('throws the ApiError of a failed page', async () => {
    const anonymous = createClient({ baseUrl: mock.baseUrl });
    await expect(anonymous.listAll('/volumes')).rejects.toMatchObject({ name: 'ApiError', status: 401 });
  });
});

describe('image upload against the mock', () => {
  let uploads: LocalServer;
  beforeAll(async () => {
    uploads = await startServer((_, response) => { response.writeHead(200).end(); });
  });
  afterAll(() => uploads?.close());

  it('creates the upload, then PUTs the bytes to upload_to as application/octet-stream without the token', async () => {
    // The mock's upload_to is a host of the example domain: send it to the local server instead.
    const routed = (input: string | Request, init?: RequestInit) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      if (url.hostname === '127.0.0.1') return fetch(request);
      return fetch(new Request(`${uploads.url}${url.pathname}${url.search}`, request));
    };
    const uploader = createClient({ baseUrl: mock.baseUrl, token: 'mock-token', fetch: routed });
    const bytes = new Uint8Array([0x1f, 0x8b, 1, 2, 3, 4]);
    const { image, upload_to: target } = await uploader.uploadImage({ label: 'custom-kernel-image', region: 'us-east', description: 'Built by CI.' }, bytes);
    expect(image.status).toBe('pending_upload');
    expect(uploads.requests).toHaveLength(1);
    const [put] = uploads.requests;
    expect(put!.method).toBe('PUT');
    expect(`${put!.url.pathname}${put!.url.search}`).toBe(`${new URL(target).pathname}${new URL(target).search}`);
    expect(put!.headers['content-type']).toBe('application/octet-stream');
    expect(put!.headers.authorization).toBeUndefined();
    expect([...put!.body]).toEqual([...bytes]);
  });

  it('throws the ApiError of a refused create and uploads nothing', async () => {
    const before = uploads.requests.length;
    const anonymous = createClient({ baseUrl: mock.baseUrl });
    await expect(anonymous.uploadImage({ label: 'x', region: 'us-east' }, new Uint8Array([1]))).rejects.toMatchObject({ name: 'ApiError', status: 401 });
    expect(uploads.requests.length).toBe(before);
  });
});
