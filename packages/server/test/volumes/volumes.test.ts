// Volumes: one test per rule of the requirements (and of the spec's decisions) for volumes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testClock, withTransitions } from '../harness/harness.js';
import type { TestServer } from '../harness/harness.js';

let t: TestServer;
const clock = testClock(0);

beforeAll(async () => {
  t = await startTestServer({ name: 'volumes', clock });
});
afterAll(() => t?.close());

const createVolume = async (body: object = {}) => {
  const answer = await t.as('full').post('/volumes', { label: 'data', region: 'us-east', ...body });
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
};


describe('volumes', () => {
  it('creating a volume needs the add_volumes grant', async () => {
    const refused = await t.as('noGrants').post('/volumes', { label: 'x', region: 'us-east' });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].reason).toMatch(/add_volumes/);
    const allowed = await t.as('volumeKeeper').post('/volumes', { label: 'x', region: 'us-east' });
    expect(allowed.status).toBe(200);
  });

  it('a new volume is placed in the region given, 20 GB unless a size is given', async () => {
    const volume = await createVolume({ label: 'placed', region: 'us-west' });
    expect(volume).toMatchObject({ label: 'placed', region: 'us-west', size: 20, compute_id: null, compute_label: null, tags: [] });
    expect((await createVolume({ size: 75 })).size).toBe(75);
  });

  it('region is required when compute_id is absent', async () => {
    const answer = await t.as('full').post('/volumes', { label: 'nowhere' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: any) => e.field)).toContain('region');
  });

  it('the region must exist and offer Block Storage', async () => {
    const unknown = await t.as('full').post('/volumes', { label: 'x', region: 'mars-north' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]).toMatchObject({ field: 'region', reason: expect.stringMatching(/does not exist/) });
  });

  it('config_id must not be sent without compute_id', async () => {
    const answer = await t.as('full').post('/volumes', { label: 'x', region: 'us-east', config_id: 5 });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: any) => e.field)).toEqual(expect.arrayContaining(['compute_id']));
  });

  it('a volume created for an instance that does not exist is refused, naming compute_id', async () => {
    const answer = await t.as('full').post('/volumes', { label: 'x', compute_id: 424242 });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ field: 'compute_id', reason: expect.stringMatching(/424242/) });
  });

  it('a new volume is creating for the transition time, then active', async () => {
    const volume = await withTransitions(clock, 60_000, () => createVolume({ label: 'slow' }));
    expect(volume.status).toBe('creating');
    expect((await t.as('full').get(`/volumes/${volume.id}`)).body.status).toBe('creating');
    clock.advance(60_001);
    expect((await t.as('full').get(`/volumes/${volume.id}`)).body.status).toBe('active');
  });

  it('only active volumes can be cloned', async () => {
    const creating = await withTransitions(clock, 60_000, () => createVolume({ label: 'young' }));
    const refused = await t.as('full').post(`/volumes/${creating.id}/clone`, { label: 'copy' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].reason).toMatch(/active/);
    clock.advance(60_001);
    const cloned = await t.as('full').post(`/volumes/${creating.id}/clone`, { label: 'copy' });
    expect(cloned.status).toBe(200);
  });

  it('a clone has the size and region of its source, its own label, and needs add_volumes', async () => {
    const source = await createVolume({ label: 'source', region: 'ca-central', size: 33 });
    const clone = await t.as('full').post(`/volumes/${source.id}/clone`, { label: 'the-copy' });
    expect(clone.body).toMatchObject({ label: 'the-copy', size: 33, region: 'ca-central' });
    expect(clone.body.id).not.toBe(source.id);
    expect((await t.as('noGrants').post(`/volumes/${source.id}/clone`, { label: 'x' })).status).toBe(403);
  });

  it('only active volumes can be resized', async () => {
    const creating = await withTransitions(clock, 60_000, () => createVolume({ label: 'busy' }));
    const refused = await t.as('full').post(`/volumes/${creating.id}/resize`, { size: 40 });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].reason).toMatch(/active/);
    clock.advance(60_001);
  });

  it('a resize only grows the volume', async () => {
    const volume = await createVolume({ size: 30 });
    for (const size of [30, 10]) {
      const refused = await t.as('full').post(`/volumes/${volume.id}/resize`, { size });
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0]).toMatchObject({ field: 'size' });
    }
    const grown = await t.as('full').post(`/volumes/${volume.id}/resize`, { size: 31 });
    expect(grown.body.size).toBe(31);
  });

  it('a resized volume is resizing for the transition time, then active', async () => {
    const volume = await createVolume();
    const resized = await withTransitions(clock, 60_000, () => t.as('full').post(`/volumes/${volume.id}/resize`, { size: 50 }));
    expect(resized.body).toMatchObject({ status: 'resizing', size: 50 });
    clock.advance(60_001);
    expect((await t.as('full').get(`/volumes/${volume.id}`)).body.status).toBe('active');
  });

  it('a volume cannot be deleted while it is creating or resizing', async () => {
    const creating = await withTransitions(clock, 60_000, () => createVolume({ label: 'new' }));
    const refused = await t.as('full').delete(`/volumes/${creating.id}`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].reason).toMatch(/creating/);
    clock.advance(60_001);
    await withTransitions(clock, 60_000, () => t.as('full').post(`/volumes/${creating.id}/resize`, { size: 21 }));
    expect((await t.as('full').delete(`/volumes/${creating.id}`)).status).toBe(400);
    clock.advance(60_001);
    expect((await t.as('full').delete(`/volumes/${creating.id}`)).status).toBe(200);
  });

  it('a deleted volume is gone, and its tags with it', async () => {
    const volume = await createVolume({ tags: ['doomed'] });
    const deleted = await t.as('full').delete(`/volumes/${volume.id}`);
    expect(deleted).toMatchObject({ status: 200, body: {} });
    expect((await t.as('full').get(`/volumes/${volume.id}`)).status).toBe(404);
    expect((await t.as('full').get('/tags/doomed')).body.results).toBe(0);
  });

  it('tags come in the order SQL gives text (by code point) in the create\'s answer, a read and a list', async () => {
    // UTF-16 code units would put the emoji (a surrogate pair) before U+FFFD.
    const volume = await createVolume({ label: 'ordered', tags: ['\u{1F600}-smile', '\uFFFD-mark', 'plain'] });
    const ordered = ['plain', '\uFFFD-mark', '\u{1F600}-smile'];
    expect(volume.tags).toEqual(ordered);
    expect((await t.as('full').get(`/volumes/${volume.id}`)).body.tags).toEqual(ordered);
    const list = (await t.as('full').get('/volumes', { query: { page_size: 100 } })).body;
    const pages = [list];
    for (let page = 2; page <= list.pages; page++) pages.push((await t.as('full').get('/volumes', { query: { page, page_size: 100 } })).body);
    expect(pages.flatMap((p: any) => p.data).find((v: any) => v.id === volume.id).tags).toEqual(ordered);
  });

  it('an update changes the label and replaces the tags; fields left out keep their value', async () => {
    const volume = await createVolume({ label: 'before', tags: ['one', 'two'] });
    const relabelled = await t.as('full').put(`/volumes/${volume.id}`, { label: 'after' });
    expect(relabelled.body).toMatchObject({ label: 'after', tags: ['one', 'two'], filesystem_path: expect.stringContaining('after') });
    const retagged = await t.as('full').put(`/volumes/${volume.id}`, { tags: ['three'] });
    expect(retagged.body).toMatchObject({ label: 'after', tags: ['three'] });
  });

  it('attaching needs an instance that exists', async () => {
    const volume = await createVolume();
    const answer = await t.as('full').post(`/volumes/${volume.id}/attach`, { compute_id: 777 });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ field: 'compute_id' });
  });

  it('attaching needs read_only permission on the volume', async () => {
    const volume = await createVolume();
    const answer = await t.as('restricted').post(`/volumes/${volume.id}/attach`, { compute_id: 777 });
    expect(answer.status).toBe(403);
    expect(answer.body.errors[0].reason).toMatch(new RegExp(`volume ${volume.id}`));
  });

  it('persist_across_boots false forbids config_id', async () => {
    const volume = await createVolume();
    const answer = await t.as('full').post(`/volumes/${volume.id}/attach`, { compute_id: 1, config_id: 2, persist_across_boots: false });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: any) => e.field)).toContain('config_id');
  });

  it('detaching a volume that is not attached is refused', async () => {
    const volume = await createVolume();
    const answer = await t.as('full').post(`/volumes/${volume.id}/detach`);
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].reason).toMatch(/not attached/);
  });

  it('operations on a volume that does not exist answer 404', async () => {
    for (const [method, path, body] of [['GET', '/volumes/99999', undefined], ['PUT', '/volumes/99999', { label: 'x' }], ['DELETE', '/volumes/99999', undefined],
      ['POST', '/volumes/99999/clone', { label: 'x' }], ['POST', '/volumes/99999/resize', { size: 90 }], ['POST', '/volumes/99999/detach', undefined]] as const) {
      const answer = await t.as('full').request(method, path, { body });
      expect(answer.status, `${method} ${path}`).toBe(404);
    }
  });

  it('a restricted user holds read_write on the volumes it creates, and no permission on others', async () => {
    const mine = (await t.as('adder').post('/volumes', { label: 'kept', region: 'us-east' })).body;
    const theirs = await createVolume();
    // Attaching checks the volume permission first, then the instance (which does not exist).
    const onMine = await t.as('adder').post(`/volumes/${mine.id}/attach`, { compute_id: 777 });
    expect(onMine.status).toBe(400);
    expect(onMine.body.errors[0].field).toBe('compute_id');
    const onTheirs = await t.as('adder').post(`/volumes/${theirs.id}/attach`, { compute_id: 777 });
    expect(onTheirs.status).toBe(403);
  });
});

describe('volume lists', () => {
  it('pages as the requirements say: page, page_size 25..100, pages and results; a page past the last is empty', async () => {
    for (let i = 0; i < 30; i++) await createVolume({ label: `bulk-${i}` });
    const total = (await t.as('full').get('/volumes', { query: { page_size: 25 } })).body;
    expect(total).toMatchObject({ page: 1, pages: Math.ceil(total.results / 25) });
    expect(total.data).toHaveLength(25);
    const last = await t.as('full').get('/volumes', { query: { page: total.pages, page_size: 25 } });
    expect(last.body.data).toHaveLength(total.results - 25 * (total.pages - 1));
    const past = await t.as('full').get('/volumes', { query: { page: total.pages + 1, page_size: 25 } });
    expect(past.body).toEqual({ data: [], page: total.pages + 1, pages: total.pages, results: total.results });
    const ids = [...total.data, ...last.body.data].map((v: any) => v.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('page_size outside 25..100 and page below 1 are refused, naming the parameter', async () => {
    for (const [name, value] of [['page_size', 24], ['page_size', 101], ['page', 0], ['page', 'two']] as const) {
      const answer = await t.as('full').get('/volumes', { query: { [name]: value } });
      expect(answer.status, `${name}=${value}`).toBe(400);
      expect(answer.body.errors[0].field).toBe(name);
    }
  });
});
