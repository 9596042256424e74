// Images: one test per rule of the requirements (and the spec's decisions) for images.
import { gzipSync } from 'node:zlib';
import { createClient } from '@cloudapi/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../src/core/catalogue.js';
import { startTestServer, testClock, TOKENS } from '../harness/harness.js';
import type { TestServer } from '../harness/harness.js';

const DAY = 24 * 60 * 60 * 1000;
const catalogue = loadCatalogue();
const clock = testClock(0);
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ name: 'images', clock });
});
afterAll(() => t?.close());

const enc = (id: string) => encodeURIComponent(id);

async function startUpload(label = 'uploaded', region = 'us-east') {
  const answer = await t.as('full').post('/images/upload', { label, region });
  expect(answer.status, answer.text).toBe(200);
  return answer.body as { image: any; upload_to: string };
}

const put = (url: string, body: Buffer | string, contentType = 'application/octet-stream') =>
  fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body });

describe('images', () => {
  it('public images are listed and shown without a token', async () => {
    const list = await t.as(null).get('/images');
    expect(list.status).toBe(200);
    expect(list.body.data.map((i: any) => i.id)).toEqual(catalogue.images.map((i) => i.id));
    const one = await t.as(null).get(`/images/${enc('compute/debian11')}`);
    expect(one.body).toEqual(catalogue.image('compute/debian11'));
  });

  it('an image id is accepted with its slash percent-encoded or literal', async () => {
    const literal = await t.as(null).get('/images/compute/debian12');
    expect(literal.status).toBe(200);
    expect(literal.body.id).toBe('compute/debian12');
  });

  it('private images are listed and shown only with a token, after the public ones', async () => {
    const { image } = await startUpload('mine');
    const withToken = await t.as('full').get('/images');
    const ids = withToken.body.data.map((i: any) => i.id);
    expect(ids.slice(0, catalogue.images.length)).toEqual(catalogue.images.map((i) => i.id));
    expect(ids).toContain(image.id);
    expect((await t.as(null).get('/images')).body.data.map((i: any) => i.id)).not.toContain(image.id);
    expect((await t.as(null).get(`/images/${enc(image.id)}`)).status).toBe(404);
    expect((await t.as('full').get(`/images/${enc(image.id)}`)).body).toMatchObject({ id: image.id, is_public: false, status: 'pending_upload', created_by: expect.stringMatching(/^user-/) });
  });

  it('a token without images:read_only is refused even where a token is optional', async () => {
    const volumesOnly = { token: 'x', scopes: 'volumes:read_only' };
    const other = await startTestServer({ name: 'images-scope', tokens: [...Object.values(TOKENS), volumesOnly] });
    try {
      const answer = await other.as({ token: 'x' }).get('/images');
      expect(answer.status).toBe(403);
      expect(answer.body.errors[0].reason).toMatch(/images:read_only/);
    } finally {
      await other.close();
    }
  });

  it('a list page may span public and private images, counted together', async () => {
    for (let i = 0; i < 25; i++) await startUpload(`bulk-${i}`);
    const first = (await t.as('full').get('/images', { query: { page_size: 25 } })).body;
    const second = (await t.as('full').get('/images', { query: { page_size: 25, page: 2 } })).body;
    expect(first.data).toHaveLength(25);
    expect(first.data[0].id).toBe(catalogue.images[0]!.id);
    expect(second.page).toBe(2);
    expect(first.results).toBe(second.results);
    expect(new Set([...first.data, ...second.data].map((i: any) => i.id)).size).toBe(first.data.length + second.data.length);
  });

  it('an upload goes pending_upload → available through upload_to, end to end with @cloudapi/client', async () => {
    const client = createClient({ baseUrl: t.baseUrl, token: TOKENS.full.token });
    const disk = gzipSync(Buffer.alloc(3 * 1024 * 1024, 7));
    const { image, upload_to: uploadTo } = await client.uploadImage({ label: 'client-upload', region: 'us-east' }, disk);
    expect(image.status).toBe('pending_upload');
    expect(new URL(uploadTo).origin).toBe(new URL(t.baseUrl).origin);
    const { data } = await client.GET('/images/{imageId}', { params: { path: { imageId: image.id } } });
    expect(data).toMatchObject({ id: image.id, status: 'available', size: 3 });
  });

  it('an uploaded image is processed for the transition time before it is available', async () => {
    const { image, upload_to: uploadTo } = await startUpload();
    clock.transitionMs = 60_000;
    try {
      expect((await put(uploadTo, gzipSync(Buffer.from('disk')))).status).toBe(200);
    } finally {
      clock.transitionMs = 0;
    }
    expect((await t.as('full').get(`/images/${enc(image.id)}`)).body.status).toBe('pending_upload');
    clock.advance(60_001);
    expect((await t.as('full').get(`/images/${enc(image.id)}`)).body.status).toBe('available');
  });

  it('an upload URL takes one upload', async () => {
    const { upload_to: uploadTo } = await startUpload();
    expect((await put(uploadTo, gzipSync(Buffer.from('disk')))).status).toBe(200);
    const again = await put(uploadTo, gzipSync(Buffer.from('disk')));
    expect(again.status).toBe(404);
    expect(((await again.json()) as any).errors[0].reason).toMatch(/unknown, already used or expired/);
  });

  it('an image whose data does not arrive within 24 hours is deleted, and its URL expires', async () => {
    const { image, upload_to: uploadTo } = await startUpload('late');
    clock.advance(DAY - 60_000);
    expect((await t.as('full').get(`/images/${enc(image.id)}`)).status).toBe(200);
    clock.advance(60_001);
    expect((await t.as('full').get(`/images/${enc(image.id)}`)).status).toBe(404);
    expect((await t.as('full').get('/images')).body.data.map((i: any) => i.id)).not.toContain(image.id);
    expect((await put(uploadTo, gzipSync(Buffer.from('disk')))).status).toBe(404);
  });

  it('uploaded data must be a gzip-compressed disk image sent as application/octet-stream', async () => {
    const { upload_to: uploadTo } = await startUpload();
    const notGzip = await put(uploadTo, 'plain bytes');
    expect(notGzip.status).toBe(400);
    expect(((await notGzip.json()) as any).errors[0].reason).toMatch(/gzip/);
    const wrongType = await put(uploadTo, gzipSync(Buffer.from('disk')), 'application/json');
    expect(wrongType.status).toBe(415);
    expect((await put(uploadTo, gzipSync(Buffer.from('disk')))).status).toBe(200);
  });

  it('an upload names a region that exists', async () => {
    const answer = await t.as('full').post('/images/upload', { label: 'x', region: 'atlantis' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].field).toBe('region');
  });

  it('public images cannot be changed or deleted', async () => {
    const update = await t.as('full').put(`/images/${enc('compute/debian11')}`, { label: 'mine now' });
    expect(update.status).toBe(403);
    expect((await t.as('full').delete(`/images/${enc('compute/debian11')}`)).status).toBe(403);
    expect((await t.as('full').delete(`/images/${enc('compute/no-such-image')}`)).status).toBe(404);
  });

  it('an update changes label and description; null clears the description', async () => {
    const { image } = await startUpload('before');
    const changed = await t.as('full').put(`/images/${enc(image.id)}`, { label: 'after', description: 'golden' });
    expect(changed.body).toMatchObject({ label: 'after', description: 'golden' });
    const cleared = await t.as('full').put(`/images/${enc(image.id)}`, { description: null });
    expect(cleared.body).toMatchObject({ label: 'after', description: null });
  });

  it('the status of an image is the service\'s: an update may only repeat it', async () => {
    const { image } = await startUpload();
    const refused = await t.as('full').put(`/images/${enc(image.id)}`, { status: 'available' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].field).toBe('status');
    expect((await t.as('full').put(`/images/${enc(image.id)}`, { status: 'pending_upload' })).status).toBe(200);
  });

  it('a deleted private image is gone', async () => {
    const { image } = await startUpload();
    expect((await t.as('full').delete(`/images/${enc(image.id)}`)).body).toEqual({});
    expect((await t.as('full').get(`/images/${enc(image.id)}`)).status).toBe(404);
    expect((await t.as('full').delete(`/images/${enc(image.id)}`)).status).toBe(404);
  });

  it('capturing an image needs a disk that exists', async () => {
    const answer = await t.as('full').post('/images', { disk_id: 42 });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ field: 'disk_id', reason: expect.stringMatching(/42/) });
  });
});
