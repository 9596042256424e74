// Tags: one test per rule of the requirements (and the spec's decisions) for tags.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../harness/harness.js';
import type { TestServer } from '../harness/harness.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ name: 'tags' });
});
afterAll(() => t?.close());

const volume = async (label = 'tagged') => {
  const answer = await t.as('full').post('/volumes', { label, region: 'us-east' });
  expect(answer.status, answer.text).toBe(200);
  return answer.body as { id: number };
};

describe('tags', () => {
  it('creating a tag puts it on the objects listed', async () => {
    const [a, b] = [await volume('a'), await volume('b')];
    const created = await t.as('full').post('/tags', { label: 'production', volumes: [a.id, b.id] });
    expect(created).toMatchObject({ status: 200, body: { label: 'production' } });
    expect((await t.as('full').get(`/volumes/${a.id}`)).body.tags).toEqual(['production']);
    const tagged = await t.as('full').get('/tags/production');
    expect(tagged.body).toMatchObject({ page: 1, pages: 1, results: 2 });
    expect(tagged.body.data.map((o: any) => [o.type, o.data.id])).toEqual([['volume', a.id], ['volume', b.id]]);
  });

  it('creating and deleting tags needs an unrestricted user', async () => {
    const created = await t.as('restricted').post('/tags', { label: 'not-mine' });
    expect(created.status).toBe(403);
    expect(created.body.errors[0].reason).toMatch(/unrestricted/);
    expect((await t.as('full').post('/tags', { label: 'keep-me' })).status).toBe(200);
    expect((await t.as('restricted').delete('/tags/keep-me')).status).toBe(403);
    expect((await t.as('full').get('/tags/keep-me')).status).toBe(200);
  });

  it('a tag is not created when the user lacks read_write on any object listed', async () => {
    const theirs = await volume('theirs');
    const unrestrictedAdder = { token: 'test-unrestricted-adder', scopes: '*', grants: ['add_volumes'], restricted: false };
    const other = await startTestServer({ name: 'tags-perm', dataDir: t.options.dataDir, databaseUrl: t.options.databaseUrl, tokens: [unrestrictedAdder] });
    try {
      const own = await other.as({ token: unrestrictedAdder.token }).post('/volumes', { label: 'own', region: 'us-east' });
      const refused = await other.as({ token: unrestrictedAdder.token }).post('/tags', { label: 'partly', volumes: [own.body.id, theirs.id] });
      expect(refused.status).toBe(403);
      expect(refused.body.errors[0]).toMatchObject({ field: 'volumes.1', reason: expect.stringMatching(new RegExp(`volume ${theirs.id}`)) });
      expect((await other.as({ token: unrestrictedAdder.token }).get('/tags/partly')).status).toBe(404);
      expect((await other.as({ token: unrestrictedAdder.token }).get(`/volumes/${own.body.id}`)).body.tags).toEqual([]);
      const allowed = await other.as({ token: unrestrictedAdder.token }).post('/tags', { label: 'wholly', volumes: [own.body.id] });
      expect(allowed.status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('a tag naming an object that does not exist is refused, naming the field, and nothing is created', async () => {
    const real = await volume();
    const answer = await t.as('full').post('/tags', { label: 'ghostly', volumes: [real.id, 999999], computes: [123] });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: any) => e.field).sort()).toEqual(['computes.0', 'volumes.1']);
    expect((await t.as('full').get('/tags/ghostly')).status).toBe(404);
  });

  it('a tag label is unique', async () => {
    expect((await t.as('full').post('/tags', { label: 'once' })).status).toBe(200);
    const again = await t.as('full').post('/tags', { label: 'once' });
    expect(again.status).toBe(400);
    expect(again.body.errors[0].field).toBe('label');
  });

  it('a tag label is 3 to 50 characters', async () => {
    for (const label of ['ab', 'x'.repeat(51)]) {
      const answer = await t.as('full').post('/tags', { label });
      expect(answer.status).toBe(400);
      expect(answer.body.errors[0].field).toBe('label');
    }
  });

  it('tagging an object with a new label creates the tag', async () => {
    const answer = await t.as('full').post('/volumes', { label: 'v', region: 'us-east', tags: ['brand-new'] });
    expect(answer.status).toBe(200);
    expect((await t.as('full').get('/tags')).body.data).toContainEqual({ label: 'brand-new' });
  });

  it('deleting a tag removes it from every object', async () => {
    const v = await volume();
    await t.as('full').post('/tags', { label: 'short-lived', volumes: [v.id] });
    expect((await t.as('full').delete('/tags/short-lived')).body).toEqual({});
    expect((await t.as('full').get(`/volumes/${v.id}`)).body.tags).toEqual([]);
    expect((await t.as('full').get('/tags/short-lived')).status).toBe(404);
    expect((await t.as('full').delete('/tags/short-lived')).status).toBe(404);
  });

  it('the tags list and the tagged objects list page like every list', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 27; i++) ids.push((await volume(`many-${i}`)).id);
    await t.as('full').post('/tags', { label: 'many', volumes: ids });
    const second = await t.as('full').get('/tags/many', { query: { page: 2, page_size: 25 } });
    expect(second.body).toMatchObject({ page: 2, pages: 2, results: 27 });
    expect(second.body.data.map((o: any) => o.data.id)).toEqual(ids.slice(25));
    const tags = await t.as('full').get('/tags', { query: { page_size: 25 } });
    expect(tags.body.data.map((x: any) => x.label)).toEqual([...tags.body.data.map((x: any) => x.label)].sort());
  });

  it('listing tags needs account:read_only, changing them account:read_write', async () => {
    expect((await t.as('readOnly').get('/tags')).status).toBe(200);
    expect((await t.as('readOnly').post('/tags', { label: 'nope' })).status).toBe(403);
  });
});
