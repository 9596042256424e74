// X-Filter in the mock, as a designer tries it: the page answered from the spec's example is
// filtered and ordered, and a bad filter gets the server's 400 naming X-Filter.
import { describe, expect, inject, it } from 'vitest';

// The run's example mock (test/support/example-mock.mjs).
const mock = inject('exampleMock');

const list = async (path, filter) => {
  const response = await fetch(`${mock.baseUrl}${path}`, { headers: { authorization: 'Bearer t', 'x-filter': typeof filter === 'string' ? filter : JSON.stringify(filter) } });
  return { status: response.status, body: await response.json() };
};

describe('X-Filter in the mock', () => {
  it('answers the example page without the items the filter excludes', async () => {
    const all = await list('/volumes', {});
    expect(all.status).toBe(200);
    expect(all.body.data.length).toBeGreaterThan(1);
    const [first] = all.body.data;
    const one = await list('/volumes', { label: first.label });
    expect(one.status).toBe(200);
    expect(one.body.data.map((v) => v.label)).toEqual([first.label]);
    expect(one.body.results).toBe(1);
    const none = await list('/volumes', { label: { '+contains': 'no such text' } });
    expect(none.body).toMatchObject({ data: [], results: 0 });
  });

  it('orders the page by +order_by and +order', async () => {
    const desc = await list('/volumes', { '+order_by': 'label', '+order': 'desc' });
    const labels = desc.body.data.map((v) => v.label);
    expect(labels).toEqual([...labels].sort().reverse());
    expect(labels.length).toBeGreaterThan(1);
  });

  it.each([
    ['not JSON', '{"label"', /not valid JSON/],
    ['a field that is not filterable', { size: 20 }, /"size" is not a filterable field/],
    ['an operator the type does not allow', { label: { '+gt': 'a' } }, /"\+gt" does not apply to "label"/],
    ['+order without +order_by', { '+order': 'asc' }, /needs "\+order_by"/],
  ])('refuses %s with 400 naming X-Filter', async (_what, filter, reason) => {
    const answer = await list('/volumes', filter);
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].field).toBe('X-Filter');
    expect(answer.body.errors[0].reason).toMatch(reason);
  });
});
