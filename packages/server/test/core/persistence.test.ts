// What was written survives a restart of the server on the same store, ids included.
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../harness/harness.js';
import type { TestServer } from '../harness/harness.js';

let t: TestServer | undefined;
afterAll(() => t?.close());

describe('persistence', () => {
  it('volumes, tags and images are there after a restart, and new ids continue after the old ones', async () => {
    t = await startTestServer({ name: 'persistence' });
    const volume = (await t.as('full').post('/volumes', { label: 'durable', region: 'eu-west', size: 42, tags: ['kept'] })).body;
    await t.as('full').post('/tags', { label: 'standalone' });
    const { image } = (await t.as('full').post('/images/upload', { label: 'durable-image', region: 'us-east', description: 'before restart' })).body;
    const before = {
      volume: (await t.as('full').get(`/volumes/${volume.id}`)).body,
      tags: (await t.as('full').get('/tags')).body,
      image: (await t.as('full').get(`/images/${encodeURIComponent(image.id)}`)).body,
    };

    await t.restart();

    expect((await t.as('full').get(`/volumes/${volume.id}`)).body).toEqual(before.volume);
    expect((await t.as('full').get('/tags')).body).toEqual(before.tags);
    expect((await t.as('full').get(`/images/${encodeURIComponent(image.id)}`)).body).toEqual(before.image);
    const next = (await t.as('full').post('/volumes', { label: 'after', region: 'eu-west' })).body;
    expect(next.id).toBeGreaterThan(volume.id);
  });
});
