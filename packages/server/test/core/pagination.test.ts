// Pages of a list (src/core/store/pagination.ts): compiled once and run as SQL, on SQLite read as
// one JSON text per row; the rows, their values and the counts must be exactly what Kysely reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { isPostgres, openStore } from '../../src/core/store/db.js';
import type { Store } from '../../src/core/store/db.js';
import { paginate } from '../../src/core/store/pagination.js';
import { engine, storeOptions } from '../harness/harness.js';

let store: Store;
const db = () => store.db as any;
const ROWS = 30;
const labels = (i: number) => [`plain ${i}`, `quote " and \\ backslash ${i}`, `ünïcödé ✓ 𝄞 ${i}`, `tab\tnewline\n${i}`][i % 4]!;

beforeAll(async () => {
  const options = await storeOptions('pagination');
  store = await openStore({ ...options, dataDir: options.dataDir! });
  const postgres = isPostgres(store.db);
  await sql.raw(`create table page_items (id ${postgres ? 'serial' : 'integer'} primary key, label text not null, note text, n bigint not null, data ${postgres ? 'bytea' : 'blob'})`).execute(store.db);
  for (let i = 1; i <= ROWS; i++) {
    await db().insertInto('page_items').values({ label: labels(i), note: i % 3 ? null : `note ${i}`, n: 2 ** 40 + i, data: Buffer.from([i, 0, 255]) }).execute();
  }
});
afterAll(() => store?.close());

describe(`list pages (${engine})`, () => {
  it('answer the rows Kysely reads, in their order, with their values (text with quotes, unicode, control characters; null; big integers)', async () => {
    const query = db().selectFrom('page_items').select(['id', 'label', 'note', 'n']).orderBy('id', 'desc');
    const expected = await query.limit(10).offset(10).execute();
    const page = await paginate(store.db, query, { query: { page: 2, page_size: 10 } }, (rows) => rows);
    expect(page).toEqual({ data: expected, page: 2, pages: 3, results: ROWS });
    expect(page.data.map((r: any) => r.id)).toEqual([20, 19, 18, 17, 16, 15, 14, 13, 12, 11]);
  });

  it('answer rows that hold a BLOB (which JSON cannot) as Kysely reads them', async () => {
    const query = db().selectFrom('page_items').selectAll().orderBy('id');
    const expected = await query.limit(5).offset(0).execute();
    const first = await paginate(store.db, query, { query: { page: 1, page_size: 5 } }, (rows) => rows);
    expect(first.data).toEqual(expected);
    expect(Buffer.from((first.data[0] as any).data)).toEqual(Buffer.from([1, 0, 255]));
    // And again, now that the list is known to hold one.
    expect((await paginate(store.db, query, { query: { page: 1, page_size: 5 } }, (rows) => rows)).data).toEqual(expected);
  });

  it('count again once the data changed (the count is remembered until then)', async () => {
    const query = db().selectFrom('page_items').select('id').orderBy('id');
    expect((await paginate(store.db, query, { query: { page: 1, page_size: 25 } }, (rows) => rows)).results).toBe(ROWS);
    await db().insertInto('page_items').values({ label: 'one more', note: null, n: 1, data: null }).execute();
    const after = await paginate(store.db, query, { query: { page: 2, page_size: 25 } }, (rows) => rows);
    expect(after.results).toBe(ROWS + 1);
    expect(after.pages).toBe(2);
    expect(after.data.map((r: any) => r.id)).toEqual([26, 27, 28, 29, 30, 31]);
    await db().deleteFrom('page_items').where('label', '=', 'one more').execute();
    expect((await paginate(store.db, query, { query: { page: 1, page_size: 25 } }, (rows) => rows)).results).toBe(ROWS);
  });
});
