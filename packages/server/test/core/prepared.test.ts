// Prepared queries (src/core/store/prepared.ts): compiled once per engine and number of arguments,
// run with new arguments, and refused when an argument does not become a value of the query.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openStore } from '../../src/core/store/db.js';
import type { Store } from '../../src/core/store/db.js';
import { compiledOnce, MAX_TEMPLATES_PER_QUERY, prepared, preparedInsert } from '../../src/core/store/prepared.js';
import { coreMigrations } from '../../src/core/migrations.js';
import { migrate } from '../../src/core/store/migrations.js';
import { engine, storeOptions } from '../harness/harness.js';

let store: Store;
beforeAll(async () => {
  const options = await storeOptions('prepared');
  store = await openStore({ ...options, dataDir: options.dataDir! });
  await migrate(store.db, coreMigrations);
  await store.db.insertInto('tags').values([{ label: 'alpha', created: 1 }, { label: 'beta', created: 2 }, { label: 'gamma', created: 3 }]).execute();
});
afterAll(() => store?.close());

describe(`prepared queries (${engine})`, () => {
  it('run with each call\'s arguments', async () => {
    const byLabel = prepared((db, label: string, after: number) => db.selectFrom('tags').select(['label', 'created']).where('label', '=', label).where('created', '>', after));
    expect(await byLabel(store.db, 'beta', 0)).toEqual([{ label: 'beta', created: 2 }]);
    expect(await byLabel(store.db, 'gamma', 0)).toEqual([{ label: 'gamma', created: 3 }]);
    expect(await byLabel(store.db, 'gamma', 3)).toEqual([]);
  });

  it('refuse an argument that is not a value of the query', async () => {
    const unused = prepared((db, _label: string) => db.selectFrom('tags').select('label'));
    await expect(unused(store.db, 'alpha')).rejects.toThrow(/argument 0 is not used as a value/);
    const inlined = prepared((db, label: string) => db.selectFrom('tags').select('label').where(sql.lit(label), '=', 'x'));
    await expect(inlined(store.db, 'alpha')).rejects.toThrow(/argument 0/);
  });

  it('may take a row per rest argument: compiled once per number of arguments', async () => {
    const insertTags = prepared((db, created: number, ...labels: string[]) => db.insertInto('tags').values(labels.map((label) => ({ label, created }))));
    await insertTags(store.db, 7, 'one-of-one');
    await insertTags(store.db, 8, 'one-of-three', 'two-of-three', 'three-of-three');
    await insertTags(store.db, 9, 'again-one');
    const rows = await store.db.selectFrom('tags').select(['label', 'created']).where('created', 'in', [7, 8, 9]).orderBy('label').execute();
    expect(rows).toEqual([
      { label: 'again-one', created: 9 }, { label: 'one-of-one', created: 7 }, { label: 'one-of-three', created: 8 },
      { label: 'three-of-three', created: 8 }, { label: 'two-of-three', created: 8 },
    ]);
  });

  it('an insert answers the id of the row it made', async () => {
    await sql`create table prepared_probe (id ${sql.raw(engine === 'postgres' ? 'serial' : 'integer')} primary key, label text not null)`.execute(store.db);
    const insertProbe = preparedInsert((db, label: string) => db.insertInto('prepared_probe').values({ label }));
    const first = await insertProbe(store.db, 'first');
    const second = await insertProbe(store.db, 'second');
    expect(second).toBeGreaterThan(first);
    const rows = await sql<{ id: number; label: string }>`select id, label from prepared_probe order by id`.execute(store.db);
    expect(rows.rows).toEqual([{ id: first, label: 'first' }, { id: second, label: 'second' }]);
  });

  it('compile in time linear in the number of arguments (20,000 values: well under a second)', async () => {
    const labels = Array.from({ length: 20_000 }, (_, i) => `label-${i}`);
    const anyOf = compiledOnce((db, _postgres, ...values: string[]) => db.selectFrom('tags').select('label').where('label', 'in', values));
    const started = performance.now();
    const result = await anyOf(store.db, 'alpha', ...labels.slice(0, 9_999));
    expect(result.rows).toEqual([{ label: 'alpha' }]);
    // Twice the arguments: about twice the time, not four times (quadratic took seconds here).
    const half = performance.now() - started;
    const again = performance.now();
    await anyOf(store.db, 'beta', ...labels.slice(0, 19_999));
    const full = performance.now() - again;
    expect(full, `10,000 arguments: ${half.toFixed(0)} ms; 20,000: ${full.toFixed(0)} ms`).toBeLessThan(1000);
  });

  it(`keep at most ${MAX_TEMPLATES_PER_QUERY} compiled shapes per query and engine, the most recently used`, async () => {
    const anyOf = compiledOnce((db, _postgres, ...values: string[]) => db.selectFrom('tags').select('label').where('label', 'in', values));
    const postgres = engine === 'postgres';
    for (let count = 1; count <= MAX_TEMPLATES_PER_QUERY + 10; count++) await anyOf(store.db, ...Array.from({ length: count }, () => 'alpha'));
    expect(anyOf.cached(postgres)).toBe(MAX_TEMPLATES_PER_QUERY);
    expect((await anyOf(store.db, 'gamma')).rows).toEqual([{ label: 'gamma' }]);
    expect(anyOf.cached(postgres)).toBe(MAX_TEMPLATES_PER_QUERY);
  });
});
