// Prepared queries (src/core/store/prepared.ts): compiled once per engine, run with new arguments,
// and refused when an argument does not become a value of the query.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openStore } from '../../src/core/store/db.js';
import type { Store } from '../../src/core/store/db.js';
import { prepared } from '../../src/core/store/prepared.js';
import { coreMigrations } from '../../src/core/migrations.js';
import { migrate } from '../../src/core/store/migrations.js';
import { engine, storeOptions } from '../support/harness.js';

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
});
