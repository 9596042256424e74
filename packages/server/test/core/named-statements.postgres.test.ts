// Prepared queries on PostgreSQL run as named statements outside transactions (src/core/store/
// postgres.ts): bounded in number and in size per store, and still answering once the columns of
// a table a statement reads have changed (a newer server process migrated it).
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { coreMigrations } from '../../src/core/migrations.js';
import { openStore } from '../../src/core/store/db.js';
import type { Store } from '../../src/core/store/db.js';
import { migrate } from '../../src/core/store/migrations.js';
import { MAX_NAMED_PARAMETERS, MAX_NAMED_STATEMENTS } from '../../src/core/store/postgres.js';
import { compiledOnce, prepared } from '../../src/core/store/prepared.js';
import { storeOptions } from '../harness/harness.js';

/** A store of one connection: what that connection prepared is every named statement of the store. */
async function singleConnectionStore(name: string): Promise<Store> {
  const options = await storeOptions(name);
  const store = await openStore({ ...options, dataDir: options.dataDir!, poolSize: 1 });
  await migrate(store.db, coreMigrations);
  return store;
}

const stores: Store[] = [];
afterAll(() => Promise.all(stores.map((store) => store.close())));

describe('named statements on PostgreSQL', () => {
  it(`name at most ${MAX_NAMED_STATEMENTS} texts per store, none with more than ${MAX_NAMED_PARAMETERS} values`, async () => {
    const store = await singleConnectionStore('named-bounds');
    stores.push(store);
    const many = compiledOnce((db, _postgres, ...labels: string[]) => db.selectFrom('tags').select('label').where('label', 'in', labels));
    expect((await many(store.db, ...Array.from({ length: MAX_NAMED_PARAMETERS + 1 }, (_, i) => `l${i}`))).rows).toEqual([]);
    for (let i = 0; i < MAX_NAMED_STATEMENTS + 20; i++) {
      const query = prepared((db, created: number) => db.selectFrom('tags').select(sql<number>`${sql.lit(i)}`.as('n')).where('created', '>', created));
      expect(await query(store.db, 0)).toEqual([]);
    }
    const named = await sql<{ n: number; widest: number }>`select count(*) as n, max(cardinality(parameter_types)) as widest from pg_prepared_statements`.execute(store.db);
    expect(Number(named.rows[0]!.n)).toBe(MAX_NAMED_STATEMENTS);
    expect(Number(named.rows[0]!.widest)).toBeLessThanOrEqual(MAX_NAMED_PARAMETERS);
  });

  it('a named statement still answers once the columns of its table have changed', async () => {
    const store = await singleConnectionStore('named-replanned');
    stores.push(store);
    await sql`create table named_probe (id integer primary key, label text not null)`.execute(store.db);
    await sql`insert into named_probe values (1, 'one')`.execute(store.db);
    const all = prepared((db, id: number) => db.selectFrom('named_probe' as any).selectAll().where('id', '=', id));
    expect(await all(store.db, 1)).toEqual([{ id: 1, label: 'one' }]);
    // Its plan's columns change under it: PostgreSQL refuses the prepared statement (0A000).
    await sql`alter table named_probe add column note text`.execute(store.db);
    for (let i = 0; i < 3; i++) expect(await all(store.db, 1)).toEqual([{ id: 1, label: 'one', note: null }]);
  });
});
