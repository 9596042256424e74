// The stateful mode with msw/node, through @cloudapi/client: the reference server's engine
// answers (its rules, catalogue and id sequences), `reset()` brings back the first state with its
// ids, keys that would reach an object's prototype never do (validation on or off), the clock
// follows `transitionMs`, and the state can be kept in a Storage across handler sets (a reload).
// Whether every answer equals the server's is parity.test.ts's question.
import { setupServer } from 'msw/node';
import { createClient } from '@cloudapi/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../src/index.js';

const baseUrl = 'https://api.cloud.test/v4';
const handlers = createHandlers({ baseUrl, stateful: true, transitionMs: 0 });
const server = setupServer(...handlers);
const client = createClient({ baseUrl, token: 'test-token', retry: false });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  server.resetHandlers();
  await handlers.store.reset();
});
afterAll(() => server.close());

const newVolume = async (label: string) => {
  const { data, error } = await client.POST('/volumes', { body: { label, region: 'us-east', size: 20 } });
  expect(error).toBeUndefined();
  return data!;
};

describe('stateful mode', () => {
  it('answers with the server\'s rules: ids from 1, the catalogue\'s regions, a path from the label', async () => {
    const volume = await newVolume('data-1');
    expect(volume).toMatchObject({ id: 1, status: 'active', filesystem_path: '/dev/disk/by-id/scsi-0Cloud_Volume_data-1' });
    const mars = await client.POST('/volumes', { body: { label: 'data-2', region: 'mars-1', size: 20 } });
    expect(mars.error).toMatchObject({ status: 400, errors: [{ field: 'region', reason: 'Region mars-1 does not exist' }] });
    expect((await client.GET('/regions')).data?.results).toBe(6);
  });

  it('reset() brings back the first state, ids included, and a request made meanwhile waits for it', async () => {
    await newVolume('first');
    await newVolume('second');
    const reset = handlers.store.reset();
    const listed = client.GET('/volumes');
    await reset;
    expect((await listed).data).toEqual({ data: [], page: 1, pages: 1, results: 0 });
    expect((await newVolume('again')).id).toBe(1);
  });

  it('never lets __proto__, constructor or prototype reach a stored object, with validation on or off', async () => {
    const volume = await newVolume('keys');
    for (const validate of [true, false]) {
      server.use(...createHandlers({ baseUrl, stateful: true, transitionMs: 0, validate }));
      for (const body of ['{"label":"x","__proto__":{"status":"resizing"}}', '{"label":"x","constructor":{"prototype":{"status":"resizing"}}}']) {
        const answer = await fetch(`${baseUrl}/volumes/1`, { method: 'PUT', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body });
        expect(answer.status).toBe(400);
        expect((await answer.json()).errors[0].reason).toMatch(/forbidden prototype property|forbidden constructor property/);
      }
      const prototypeKey = await fetch(`${baseUrl}/volumes/1`, { method: 'PUT', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: '{"label":"x","prototype":{"status":"resizing"}}' });
      expect(prototypeKey.status).toBe(400);
      expect((await prototypeKey.json()).errors).toContainEqual({ field: 'prototype', reason: 'prototype is not a field this request accepts' });
      server.resetHandlers();
    }
    const read = await client.GET('/volumes/{volumeId}', { params: { path: { volumeId: volume.id } } });
    expect(read.data).toEqual(volume);
    expect(Object.getPrototypeOf(read.data)).toBe(Object.prototype);
  });

  it('moves states on the clock of transitionMs', async () => {
    server.use(...createHandlers({ baseUrl, stateful: true, transitionMs: 150 }));
    const { data } = await client.POST('/volumes', { body: { label: 'slow', region: 'us-east', size: 20 } });
    expect(data?.status).toBe('creating');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await client.GET('/volumes/{volumeId}', { params: { path: { volumeId: data!.id } } })).data?.status).toBe('active');
  });

  it('keeps the state in a storage when asked (an asynchronous one here): new handlers on it (a reload) see it; reset() forgets it', async () => {
    // An asynchronous storage, as an IndexedDB adapter is (sessionStorage's case: the Chromium test).
    const kept = new Map<string, string>();
    const later = <T>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), 1));
    const storage = { getItem: (k: string) => later(kept.get(k) ?? null), setItem: async (k: string, v: string) => { await later(kept.set(k, v)); }, removeItem: async (k: string) => { await later(kept.delete(k)); } };
    const first = createHandlers({ baseUrl, stateful: true, transitionMs: 0, persist: { storage, key: 'state' } });
    server.use(...first);
    await newVolume('kept');
    expect(kept.get('state')?.length).toBeGreaterThan(1000);
    server.resetHandlers();
    const reloaded = createHandlers({ baseUrl, stateful: true, transitionMs: 0, persist: { storage, key: 'state' } });
    server.use(...reloaded);
    expect((await client.GET('/volumes')).data?.data.map((v) => v.label)).toEqual(['kept']);
    await reloaded.store.reset();
    expect(kept.has('state')).toBe(false);
    expect((await client.GET('/volumes')).data?.results).toBe(0);
    await Promise.all([first.store.close(), reloaded.store.close()]);
  });

  it('checks tokens as the server does when given a tokens list', async () => {
    server.use(...createHandlers({ baseUrl, stateful: true, transitionMs: 0, tokens: [{ token: 'reader', scopes: 'volumes:read_only' }] }));
    const reader = createClient({ baseUrl, token: 'reader', retry: false });
    expect((await reader.GET('/volumes')).data?.results).toBe(0);
    const refused = await reader.POST('/volumes', { body: { label: 'nope', region: 'us-east' } });
    expect(refused.error).toMatchObject({ status: 403, errors: [{ reason: 'This token lacks the scope volumes:read_write that createVolume needs' }] });
    expect((await client.GET('/volumes')).error?.status).toBe(401);
  });

  it('answers a path outside the operations as the server does', async () => {
    const unknown = await fetch(`${baseUrl}/nowhere`, { headers: { authorization: 'Bearer t' } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ errors: [{ reason: 'No operation at GET /v4/nowhere' }] });
    const method = await fetch(`${baseUrl}/regions`, { method: 'DELETE' });
    expect(method.status).toBe(405);
    expect(method.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});
