// X-Filter on the reference server, on the engine of this project (sqlite or postgres): each rule
// of "Filtering and sorting", the 400s that name X-Filter, and pages counted after filtering.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../harness/harness.js';
import type { TestServer } from '../harness/harness.js';

let t: TestServer;
const filtered = (path: string, filter: unknown, query: Record<string, string | number> = {}) =>
  t.as('full').get(path, { headers: { 'x-filter': typeof filter === 'string' ? filter : JSON.stringify(filter) }, query });
const labels = (answer: { body: any }) => answer.body.data.map((v: any) => v.label);

beforeAll(async () => {
  t = await startTestServer({ name: 'filtering' });
  for (const [label, tags] of [['alpha-db', ['prod', 'dbs']], ['beta-web', ['prod']], ['gamma-db', ['dev']], ['delta', []]] as const) {
    const answer = await t.as('full').post('/volumes', { label, region: 'us-east', tags });
    expect(answer.status, answer.text).toBe(200);
  }
});
afterAll(() => t?.close());

describe('X-Filter on the server', () => {
  it('matches a field for equality, and a tag list by one of its tags', async () => {
    expect(labels(await filtered('/volumes', { label: 'beta-web' }))).toEqual(['beta-web']);
    expect(labels(await filtered('/volumes', { tags: 'prod' }))).toEqual(['alpha-db', 'beta-web']);
    expect(labels(await filtered('/volumes', { label: 'nothing' }))).toEqual([]);
  });

  it('takes +contains on text and tags, +neq, and nested +and/+or', async () => {
    expect(labels(await filtered('/volumes', { label: { '+contains': '-db' } }))).toEqual(['alpha-db', 'gamma-db']);
    expect(labels(await filtered('/volumes', { tags: { '+contains': 'ro' } }))).toEqual(['alpha-db', 'beta-web']);
    expect(labels(await filtered('/volumes', { tags: { '+neq': 'prod' } }))).toEqual(['gamma-db', 'delta']);
    expect(labels(await filtered('/volumes', { '+or': [{ label: 'delta' }, { '+and': [{ tags: 'prod' }, { label: { '+neq': 'alpha-db' } }] }] }))).toEqual(['beta-web', 'delta']);
  });

  it('orders by +order_by/+order and counts page, pages and results after filtering', async () => {
    expect(labels(await filtered('/volumes', { '+order_by': 'label', '+order': 'desc' }))).toEqual(['gamma-db', 'delta', 'beta-web', 'alpha-db']);
    const page = await filtered('/volumes', { label: { '+contains': 'a' }, '+order_by': 'label' }, { page: 1, page_size: 25 });
    expect(page.body).toMatchObject({ page: 1, pages: 1, results: 4 });
    const some = await filtered('/volumes', { tags: 'prod' });
    expect(some.body).toMatchObject({ results: 2, pages: 1 });
  });

  it('counts again after a write changes which rows match (the SQLite count is remembered only until then)', async () => {
    const filter = { label: { '+contains': 'counted-' } };
    expect((await filtered('/volumes', filter)).body.results).toBe(0);
    const made = await t.as('full').post('/volumes', { label: 'counted-1', region: 'us-east' });
    expect(made.status, made.text).toBe(200);
    expect((await filtered('/volumes', filter)).body.results).toBe(1);
    expect((await t.as('full').put(`/volumes/${made.body.id}`, { label: 'renamed' })).status).toBe(200);
    expect((await filtered('/volumes', filter)).body.results).toBe(0);
    expect((await t.as('full').delete(`/volumes/${made.body.id}`)).status).toBe(200);
  });

  it('compares timestamps and matches null on nullable fields', async () => {
    const all = (await t.as('full').get('/volumes')).body.data;
    const created = all[0].created;
    expect((await filtered('/volumes', { '+and': [{ label: all[0].label }] , '+order_by': 'created' })).body.results).toBe(1);
    const tickets = await filtered('/support/tickets', { closed: null, opened: { '+lte': created } });
    expect(tickets.status, tickets.text).toBe(200);
    const contacts = await filtered('/managed/contacts', { group: null });
    expect(contacts.status, contacts.text).toBe(200);
  });

  it('matches null and compares timestamps in SQL, at whole seconds', async () => {
    const contact = (name: string, group: string | null) => t.as('full').post('/managed/contacts', { name, email: `${name}@example.org`, group, phone: { primary: '555-0100', secondary: null } });
    for (const [name, group] of [['nogroup', null], ['oncall', 'on-call']] as const) expect((await contact(name, group)).status).toBe(200);
    const names = (answer: { body: any }) => answer.body.data.map((c: any) => c.name);
    expect(names(await filtered('/managed/contacts', { group: null }))).toEqual(['nogroup']);
    expect(names(await filtered('/managed/contacts', { group: { '+neq': null } }))).toEqual(['oncall']);
    expect(names(await filtered('/managed/contacts', { group: { '+neq': 'on-call' } }))).toEqual(['nogroup']);
    const opened = await t.as('full').post('/support/tickets', { summary: 'Filter me please', description: 'A ticket for the X-Filter test of timestamps.' });
    expect(opened.status, opened.text).toBe(200);
    const at = opened.body.opened as string;
    const ids = (answer: { body: any }) => answer.body.data.map((x: any) => x.id);
    expect(ids(await filtered('/support/tickets', { opened: at }))).toEqual([opened.body.id]);
    expect(ids(await filtered('/support/tickets', { opened: { '+gte': at }, closed: null }))).toEqual([opened.body.id]);
    expect(ids(await filtered('/support/tickets', { opened: { '+lte': at } }))).toEqual([opened.body.id]);
    expect(ids(await filtered('/support/tickets', { opened: { '+gt': at } }))).toEqual([]);
    expect(ids(await filtered('/support/tickets', { opened: { '+lt': at } }))).toEqual([]);
    expect(ids(await filtered('/support/tickets', { opened: { '+neq': at } }))).toEqual([]);
  });

  it.each([
    ['malformed JSON', '{"label":', /not valid JSON/],
    ['a field that is not filterable', { size: 20 }, /"size" is not a filterable field/],
    ['an unknown operator', { label: { '+like': 'a' } }, /"\+like" on "label" is not an operator/],
    ['an operator the type does not allow', { label: { '+gt': 'a' } }, /"\+gt" does not apply to "label"/],
    ['a value of the wrong type', { label: 5 }, /"label" takes a string/],
    ['+order without +order_by', { '+order': 'desc' }, /"\+order" needs "\+order_by"/],
    ['+order_by on a field it cannot order by', { '+order_by': 'tags' }, /"\+order_by" takes one of/],
    ['nesting past the limit', { '+or': [{ '+or': [{ '+or': [{ '+or': [{ '+or': [{ label: 'a' }] }] }] }] }] }, /"\+or" nests deeper/],
    ['too many entries', { '+or': Array.from({ length: 17 }, () => ({ label: 'a' })) }, /over the limit of 16/],
    ['__proto__ as a field', '{"__proto__": {"+neq": 1}}', /"__proto__" is not a filterable field/],
  ])('refuses %s with a 400 naming X-Filter', async (_what, filter, reason) => {
    const answer = await filtered('/volumes', filter);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.errors[0].field).toBe('X-Filter');
    expect(answer.body.errors[0].reason).toMatch(reason);
  });

  it('filters every list whose items have filterable fields', async () => {
    const cases: [string, object][] = [
      ['/compute/instances', { group: { '+neq': 'x' }, tags: 'prod', '+order_by': 'label' }],
      ['/domains', { domain: { '+contains': 'example' }, group: 'x', tags: { '+contains': 'a' } }],
      ['/balancers', { label: { '+contains': 'a' }, tags: 'b', '+order_by': 'updated', '+order': 'desc' }],
      ['/images', { is_public: true, size: { '+gte': 1 }, vendor: null, '+order_by': 'size' }],
      ['/support/tickets', { updated: { '+gt': '2018-01-01T00:01:01' }, '+order_by': 'closed' }],
    ];
    for (const [path, filter] of cases) {
      const answer = await filtered(path, filter);
      expect(answer.status, `${path}: ${answer.text}`).toBe(200);
    }
    const images = await filtered('/images', { is_public: true, '+order_by': 'size', '+order': 'desc' });
    const sizes = images.body.data.map((i: any) => i.size);
    expect(images.body.data.every((i: any) => i.is_public)).toBe(true);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
  });
});
