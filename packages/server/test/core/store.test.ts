// The store's promises to handlers, on both engines: one transaction per write (all or nothing),
// and `forUpdate` making read-then-write safe against concurrent writers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as areas from '../../src/areas/index.js';
import { NOT_YET_IMPLEMENTED } from '../../src/areas/not-yet-implemented.js';
import { buildRegistry } from '../../src/core/registry.js';
import { forUpdate, openStore } from '../../src/core/store/db.js';
import type { Store } from '../../src/core/store/db.js';
import { migrate } from '../../src/core/store/migrations.js';
import { engine, storeOptions } from '../support/harness.js';

let store: Store;
beforeAll(async () => {
  const options = await storeOptions('store');
  store = await openStore({ ...options, dataDir: options.dataDir! });
  await migrate(store.db, buildRegistry(Object.values(areas), NOT_YET_IMPLEMENTED).migrations);
});
afterAll(() => store?.close());

describe(`store (${engine})`, () => {
  it('a write that fails leaves nothing behind', async () => {
    await expect(store.write(async (trx) => {
      await trx.insertInto('tags').values({ label: 'half-written', created: 1 }).execute();
      throw new Error('the second half failed');
    })).rejects.toThrow('the second half failed');
    expect(await store.db.selectFrom('tags').selectAll().where('label', '=', 'half-written').execute()).toEqual([]);
  });

  it('read-then-write under forUpdate loses no update when writes run at once', async () => {
    await store.db.insertInto('tags').values({ label: 'counter', created: 0 }).execute();
    const increment = () => store.write(async (trx) => {
      const row = await forUpdate(trx, trx.selectFrom('tags').select('created').where('label', '=', 'counter')).executeTakeFirstOrThrow();
      await new Promise((r) => setTimeout(r, 20)); // widen the window a race would need
      await trx.updateTable('tags').set({ created: row.created + 1 }).where('label', '=', 'counter').execute();
    });
    await Promise.all(Array.from({ length: 8 }, increment));
    const { created } = await store.db.selectFrom('tags').select('created').where('label', '=', 'counter').executeTakeFirstOrThrow();
    expect(created).toBe(8);
  });
});
