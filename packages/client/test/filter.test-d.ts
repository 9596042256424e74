// Type tests of the `filter` option of list calls: fields and operators come from the spec's
// x-filterable marks (ListFilters in @cloudapi/types); anything else does not compile.
import { describe, expectTypeOf, it } from 'vitest';
import { createClient, type ListFilter } from '../src/index.js';
import type { ListVolumesFilter } from '@cloudapi/types';

const client = createClient({ baseUrl: 'https://api.cloud.example/v4' });

describe('filter', () => {
  it('takes the marked fields, their operators, +and/+or and ordering', async () => {
    expectTypeOf<ListFilter<'/volumes'>>().toEqualTypeOf<ListVolumesFilter>();
    await client.listAll('/volumes', { filter: { label: 'db', tags: { '+contains': 'prod' }, '+order_by': 'created', '+order': 'desc' } });
    await client.listAll('/images', { filter: { '+or': [{ size: { '+gte': 10 } }, { is_public: false }], vendor: null } });
    await client.listAll('/support/tickets', { filter: { opened: { '+gt': '2018-01-01T00:01:01' } } });
    const { data } = await client.GET('/volumes', { filter: { label: { '+neq': 'x' } }, params: { query: { page_size: 25 } } });
    expectTypeOf(data!.results).toEqualTypeOf<number>();
    await client.GET('/compute/instances/{computeId}/configs', { params: { path: { computeId: 1 } }, filter: { label: 'boot' } });
    for await (const page of client.pages('/domains', { filter: { domain: { '+contains': 'example' } } })) expectTypeOf(page.page).toEqualTypeOf<number>();
  });

  it('refuses a field that is not filterable, an operator its type lacks, and a wrong value', async () => {
    // @ts-expect-error size is not filterable on volumes
    await client.listAll('/volumes', { filter: { size: 20 } });
    // @ts-expect-error +gt does not apply to text
    await client.listAll('/volumes', { filter: { label: { '+gt': 'a' } } });
    // @ts-expect-error +contains does not apply to numbers
    await client.listAll('/images', { filter: { size: { '+contains': '1' } } });
    // @ts-expect-error label takes a string
    await client.listAll('/volumes', { filter: { label: 5 } });
    // @ts-expect-error +order_by names an orderable field
    await client.listAll('/volumes', { filter: { '+order_by': 'tags' } });
    // @ts-expect-error a GET takes the list's filter too
    await client.GET('/volumes', { filter: { region: 'us-east' } });
    // @ts-expect-error a GET of one object takes no filter
    await client.GET('/volumes/{volumeId}', { params: { path: { volumeId: 1 } }, filter: { label: 'x' } });
    // @ts-expect-error regions have no filterable field
    await client.listAll('/regions', { filter: { id: 'us-east' } });
  });
});
