// Prepared queries on PostgreSQL run as named statements on pipelined connections outside
// transactions (src/core/store/postgres-reads.ts): bounded in number and in size per store, and
// still answering once the columns of a table a statement reads have changed (a newer server
// process migrated it, here through the store's pool).
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { coreMigrations } from '../../src/core/migrations.js';
import { openStore } from '../../src/core/store/db.js';
import type { Store } from '../../src/core/store/db.js';
import { migrate } from '../../src/core/store/migrations.js';
import { MAX_NAMED_PARAMETERS, MAX_NAMED_STATEMENTS, PIPELINED_CONNECTIONS } from '../../src/core/store/postgres-reads.js';
import { compiledOnce, prepared, runTemplate } from '../../src/core/store/prepared.js';
import { storeOptions } from '../harness/harness.js';

async function newStore(name: string): Promise<Store> {
  const options = await storeOptions(name);
  const store = await openStore({ ...options, dataDir: options.dataDir! });
  await migrate(store.db, coreMigrations);
  return store;
}

/**
 * The named statements of every pipelined connection: as many reads at once as there are
 * connections go one to each (a read goes to the connection with the fewest on the wire).
 */
async function namedStatements(store: Store): Promise<{ count: number; widest: number }> {
  const read = { sql: 'select count(*) as n, coalesce(max(cardinality(parameter_types)), 0) as widest from pg_prepared_statements', parameters: [], slots: [] };
  const answers = await Promise.all(Array.from({ length: PIPELINED_CONNECTIONS }, () => runTemplate(store.db, read, [])));
  const rows = answers.map((answer) => answer.rows[0] as { n: number; widest: number });
  return { count: rows.reduce((sum, row) => sum + Number(row.n), 0), widest: Math.max(...rows.map((row) => Number(row.widest))) };
}

const stores: Store[] = [];
afterAll(() => Promise.all(stores.map((store) => store.close())));

describe('named statements on PostgreSQL', () => {
  it(`name at most ${MAX_NAMED_STATEMENTS} texts per store, none with more than ${MAX_NAMED_PARAMETERS} values`, async () => {
    const store = await newStore('named-bounds');
    stores.push(store);
    const many = compiledOnce((db, _postgres, ...labels: string[]) => db.selectFrom('tags').select('label').where('label', 'in', labels));
    expect((await many(store.db, ...Array.from({ length: MAX_NAMED_PARAMETERS + 1 }, (_, i) => `l${i}`))).rows).toEqual([]);
    for (let i = 0; i < MAX_NAMED_STATEMENTS + 20; i++) {
      const query = prepared((db, created: number) => db.selectFrom('tags').select(sql<number>`${sql.lit(i)}`.as('n')).where('created', '>', created));
      expect(await query(store.db, 0)).toEqual([]);
    }
    const named = await namedStatements(store);
    expect(named.count).toBe(MAX_NAMED_STATEMENTS);
    expect(named.widest).toBeLessThanOrEqual(MAX_NAMED_PARAMETERS);
  });

  it('a named statement still answers once the columns of its table have changed', async () => {
    const store = await newStore('named-replanned');
    stores.push(store);
    await sql`create table named_probe (id integer primary key, label text not null)`.execute(store.db);
    await sql`insert into named_probe values (1, 'one')`.execute(store.db);
    const all = prepared((db, id: number) => db.selectFrom('named_probe' as any).selectAll().where('id', '=', id));
    expect(await all(store.db, 1)).toEqual([{ id: 1, label: 'one' }]);
    // Its plan's columns change under it: PostgreSQL refuses the prepared statement (0A000).
    await sql`alter table named_probe add column note text`.execute(store.db);
    for (let i = 0; i < 3; i++) expect(await all(store.db, 1)).toEqual([{ id: 1, label: 'one', note: null }]);
  });

  it('a pipelined connection that is lost is opened again for the next reads', async () => {
    const store = await newStore('pipelined-lost');
    stores.push(store);
    const backend = { sql: 'select pg_backend_pid() as pid', parameters: [], slots: [] };
    const pidOfRead = async () => Number(((await runTemplate(store.db, backend, [])).rows[0] as { pid: number }).pid);
    const lost = await pidOfRead();
    await sql`select pg_terminate_backend(${lost})`.execute(store.db);
    // The read on the wire when the connection goes may fail, as on the pool; the reads after it open another.
    let pid = lost;
    for (let attempt = 0; attempt < 20 && (pid === lost || Number.isNaN(pid)); attempt++) {
      pid = await pidOfRead().catch(() => Number.NaN);
      if (Number.isNaN(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(pid).not.toBe(lost);
    expect(pid).toBeGreaterThan(0);
    expect(await pidOfRead()).toBe(pid);
  });

  it('a read that may take long (a list\'s count or page) runs on the pool, never ahead of a point read', async () => {
    const store = await newStore('pipelined-long');
    stores.push(store);
    const long = { sql: 'select pg_sleep(1.5)', parameters: [], slots: [], long: true };
    const slow = Array.from({ length: PIPELINED_CONNECTIONS }, () => runTemplate(store.db, long, []));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    await runTemplate(store.db, { sql: 'select 1 as one', parameters: [], slots: [] }, []);
    expect(performance.now() - started, 'a point read while long reads run').toBeLessThan(750);
    await Promise.all(slow);
  });

  it('reads asked for at once, pipelined, each get the answer to their own query', async () => {
    const store = await newStore('pipelined-answers');
    stores.push(store);
    await sql`insert into tags (label, created) select 'tag-' || i, i from generate_series(1, 60) as i`.execute(store.db);
    const byCreated = prepared((db, created: number) => db.selectFrom('tags').select(['label', 'created']).where('created', '=', created));
    const plain = compiledOnce((db, _postgres, created: number) => db.selectFrom('tags').select('label').where('created', '>=', created).orderBy('created').limit(2));
    const answers = await Promise.all(Array.from({ length: 60 }, async (_, i) => (i % 2 ? byCreated(store.db, i + 1) : (await plain(store.db, i + 1)).rows)));
    answers.forEach((rows, i) => expect(rows, `read ${i}`).toEqual(i % 2 ? [{ label: `tag-${i + 1}`, created: i + 1 }] : [{ label: `tag-${i + 1}` }, { label: `tag-${i + 2}` }]));
  });
});
