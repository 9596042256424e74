// A consumer's own test suite: @cloudapi/msw and @cloudapi/client installed from their tarballs.
import { setupServer } from 'msw/node';
import { HttpResponse } from 'msw';
import { createClient } from '@cloudapi/client';
import { createHandlers, createHttp } from '@cloudapi/msw';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';

const baseUrl = 'https://api.example.test/v4';
const server = setupServer(...createHandlers({ baseUrl }));
const http = createHttp({ baseUrl });
const client = createClient({ baseUrl, token: 'consumer-token', retry: false });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

it('gets the example volume', async () => {
  const { data, error } = await client.GET('/volumes/{volumeId}', { params: { path: { volumeId: 12345 } } });
  expect(error).toBeUndefined();
  expect(data).toMatchObject({ id: expect.any(Number), label: expect.any(String), status: expect.any(String) });
});

it('is refused with a 400 naming the field', async () => {
  const { error } = await client.POST('/volumes', { body: { label: 'x', region: 'us-east', size: -1 } });
  expect(error?.status).toBe(400);
  expect(error?.errors.map((e) => e.field)).toContain('size');
});

it('overrides one operation with a typed resolver', async () => {
  server.use(http.get('/volumes/{volumeId}', ({ params }) => HttpResponse.json({ errors: [{ reason: `no volume ${params.volumeId * 2}` }] }, { status: 404 })));
  const { error } = await client.GET('/volumes/{volumeId}', { params: { path: { volumeId: 21 } } });
  expect(error?.status).toBe(404);
  expect(error?.errors[0]?.reason).toBe('no volume 42');
});

it('keeps state when asked', async () => {
  server.use(...createHandlers({ baseUrl, stateful: true }));
  const created = await client.POST('/volumes', { body: { label: 'kept', region: 'us-east' } });
  const read = await client.GET('/volumes/{volumeId}', { params: { path: { volumeId: created.data!.id } } });
  expect(read.data?.label).toBe('kept');
});
