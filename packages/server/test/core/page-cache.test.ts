// The page cache (src/core/store/page-cache.ts) on both engines: a list read again with nothing
// changed is answered from it, and every write that can change a list, by any area, is seen by
// the next read, as is a state reached on the clock; the request's X-Filter, page and caller are
// part of what is kept; per-request headers are not. (Two processes on one PostgreSQL:
// page-cache.postgres.test.ts; the bounds: test/unit/page-cache.test.ts.)
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as registeredAreas from '../../src/areas/index.js';
import type { Area, HandlerOptions } from '../../src/core/area.js';
import { startTestServer, testClock, TOKENS, withTransitions } from '../harness/harness.js';
import type { TestServer, TokenName } from '../harness/harness.js';

let t: TestServer;
const clock = testClock(0);

/**
 * The Volumes area, its list hiding every volume from restricted users: a list whose answer
 * depends on the caller (none of the areas' lists does so today), to show that each caller's
 * page is kept apart.
 */
function volumesHiddenFromRestricted(): Area {
  const area = registeredAreas.volumes;
  const list = area.handlers.listVolumes as HandlerOptions<'listVolumes'>;
  const handle: HandlerOptions<'listVolumes'>['handle'] = async (ctx) => {
    const page = await list.handle(ctx);
    return ctx.auth?.restricted ? { ...page, data: [], results: 0, pages: 0 } : page;
  };
  return { ...area, handlers: { ...area.handlers, listVolumes: { ...list, handle } } };
}

beforeAll(async () => {
  const areas = Object.values(registeredAreas).map((area) => (area === registeredAreas.volumes ? volumesHiddenFromRestricted() : area));
  t = await startTestServer({ name: 'page-cache', clock, areas, rateLimit: '100000/60s', tokens: [...Object.values(TOKENS), { token: 'domains-only', scopes: 'domains:read_only' }] });
});
afterAll(() => t?.close());

const pages = () => t.server.store.pages!.stats();
const list = async (query: Record<string, string | number> = {}, who: TokenName = 'full', headers: Record<string, string> = {}) => {
  const answer = await t.as(who).get('/volumes', { query: { page_size: 100, ...query }, headers });
  expect(answer.status, answer.text).toBe(200);
  return answer;
};
const ok = async <T = any>(pending: Promise<{ status: number; body: T; text: string }>) => {
  const answer = await pending;
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
};
/** The list read twice, the second time from the cache: the page now kept is the one about to be dropped. */
async function keptList(query: Record<string, string | number> = {}) {
  await list(query);
  const before = pages().hits;
  const answer = await list(query);
  expect(pages().hits, 'the second read is answered from the cache').toBe(before + 1);
  return answer.body;
}
const find = (page: any, id: number) => page.data.find((v: any) => v.id === id);

describe('page cache', () => {
  it('a page read again with nothing changed is answered from the cache, with headers of its own', async () => {
    await ok(t.as('full').post('/volumes', { label: 'kept', region: 'us-east' }));
    const first = await list();
    const before = pages();
    const second = await list();
    expect(pages().hits).toBe(before.hits + 1);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(second.headers.get('content-length')).toBe(first.headers.get('content-length'));
    // Per request, never kept: the request id and the rate limit's count.
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(Number(second.headers.get('x-ratelimit-remaining'))).toBeLessThan(Number(first.headers.get('x-ratelimit-remaining')));
  });

  it('every write that changes the volume list, by any area, is seen by the next read', async () => {
    const volume = await ok(t.as('full').post('/volumes', { label: 'written', region: 'us-east' }));
    const instance = await ok(t.as('full').post('/compute/instances', { region: 'us-east', type: 'g6-standard-2', label: 'host-one', image: 'compute/debian11', root_pass: 'Correct-Horse-9-Battery' }));
    const writes: [string, () => Promise<unknown>, (page: any) => void][] = [
      ['create', () => ok(t.as('full').post('/volumes', { label: 'newcomer', region: 'us-east' })), (page) => expect(page.data.map((v: any) => v.label)).toContain('newcomer')],
      ['update', () => ok(t.as('full').put(`/volumes/${volume.id}`, { label: 'renamed' })), (page) => expect(find(page, volume.id).label).toBe('renamed')],
      ['tags of the volume', () => ok(t.as('full').put(`/volumes/${volume.id}`, { tags: ['first-tag'] })), (page) => expect(find(page, volume.id).tags).toEqual(['first-tag'])],
      ['a tag put on it (Tags)', () => ok(t.as('full').post('/tags', { label: 'second-tag', volumes: [volume.id] })), (page) => expect(find(page, volume.id).tags).toEqual(['first-tag', 'second-tag'])],
      ['a tag deleted (Tags)', () => t.as('full').delete('/tags/first-tag'), (page) => expect(find(page, volume.id).tags).toEqual(['second-tag'])],
      ['attach (Compute places it)', () => ok(t.as('full').post(`/volumes/${volume.id}/attach`, { compute_id: instance.id })), (page) => expect(find(page, volume.id)).toMatchObject({ compute_id: instance.id, compute_label: 'host-one' })],
      ['the instance renamed (Compute)', () => ok(t.as('full').put(`/compute/instances/${instance.id}`, { label: 'host-two' })), (page) => expect(find(page, volume.id).compute_label).toBe('host-two')],
      ['detach', () => ok(t.as('full').post(`/volumes/${volume.id}/detach`)), (page) => expect(find(page, volume.id)).toMatchObject({ compute_id: null, compute_label: null })],
      ['resize', () => ok(t.as('full').post(`/volumes/${volume.id}/resize`, { size: 40 })), (page) => expect(find(page, volume.id).size).toBe(40)],
      ['clone', () => ok(t.as('full').post(`/volumes/${volume.id}/clone`, { label: 'the-clone' })), (page) => expect(page.data.map((v: any) => v.label)).toContain('the-clone')],
      ['delete', () => ok(t.as('full').delete(`/volumes/${volume.id}`)), (page) => expect(find(page, volume.id)).toBeUndefined()],
    ];
    for (const [name, write, check] of writes) {
      await keptList();
      await write();
      const page = (await list()).body;
      expect(() => check(page), `after ${name}`).not.toThrow();
    }
  });

  it('a row written by another connection to the database (another process, an operator) is seen by the next read', async () => {
    await keptList();
    const insert = `insert into volumes (label, size, region, status, created, updated) values ('from-outside', 10, 'us-east', 'active', ${clock.now()}, ${clock.now()})`;
    if (t.engine === 'sqlite') {
      const outside = new Database(t.server.store.location);
      try {
        outside.exec(insert);
      } finally {
        outside.close();
      }
    } else {
      const outside = new pg.Client({ connectionString: t.options.databaseUrl });
      await outside.connect();
      try {
        await outside.query(insert);
      } finally {
        await outside.end();
      }
    }
    expect((await list()).body.data.map((v: any) => v.label)).toContain('from-outside');
  });

  it('a state reached on the clock is shown once its time comes, with no write in between', async () => {
    const volume = await withTransitions(clock, 60_000, () => ok(t.as('full').post('/volumes', { label: 'slow', region: 'us-east' })));
    expect(find(await keptList(), volume.id).status).toBe('creating');
    clock.advance(30_000);
    expect(find((await list()).body, volume.id).status).toBe('creating');
    clock.advance(30_001);
    expect(find((await list()).body, volume.id).status).toBe('active');
  });

  it('the X-Filter, the page and its size are part of what is kept', async () => {
    for (const label of ['alpha-one', 'alpha-two', 'beta-one']) await ok(t.as('full').post('/volumes', { label, region: 'us-east' }));
    const all = await keptList({ page_size: 25 });
    expect(all.results).toBeGreaterThan(3);
    const filtered = (await list({ page_size: 25 }, 'full', { 'x-filter': JSON.stringify({ label: { '+contains': 'alpha-' } }) })).body;
    expect(filtered.data.map((v: any) => v.label)).toEqual(['alpha-one', 'alpha-two']);
    const other = (await list({ page_size: 25 }, 'full', { 'x-filter': JSON.stringify({ label: 'beta-one' }) })).body;
    expect(other.data.map((v: any) => v.label)).toEqual(['beta-one']);
    const second = (await list({ page_size: 25, page: 2 })).body;
    expect(second.page).toBe(2);
    expect(second.data.map((v: any) => v.id)).not.toEqual(all.data.map((v: any) => v.id));
    expect((await list({ page_size: 50 })).body.data.length).toBe(Math.min(50, all.results));
  });

  it('each caller gets its own pages, and is authenticated before any page is answered', async () => {
    await ok(t.as('full').post('/volumes', { label: 'seen-by-some', region: 'us-east' }));
    expect((await keptList()).results).toBeGreaterThan(0);
    const restricted = (await list({}, 'restricted')).body;
    expect(restricted).toMatchObject({ data: [], results: 0 });
    expect((await t.as(null).get('/volumes', { query: { page_size: 100 } })).status).toBe(401);
    expect((await t.as({ token: 'domains-only' }).get('/volumes', { query: { page_size: 100 } })).status).toBe(403);
  });
});
