// The store's promises to handlers, on both engines: one transaction per write (all or nothing),
// settled once committed (SQLite commits writes asked for together in one group commit), and
// `forUpdate` making read-then-write safe against concurrent writers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import * as areas from '../../src/areas/index.js';
import { buildRegistry } from '../../src/core/registry.js';
import { forUpdate, openStore } from '../../src/core/store/db.js';
import { prepared } from '../../src/core/store/prepared.js';
import type { Store } from '../../src/core/store/db.js';
import { migrate } from '../../src/core/store/migrations.js';
import { engine, storeOptions } from '../harness/harness.js';

let store: Store;
/** A second connection (SQLite) or pool (PostgreSQL) on the same data: it sees only what is committed. */
let other: Store;
beforeAll(async () => {
  const options = await storeOptions('store');
  store = await openStore({ ...options, dataDir: options.dataDir! });
  await migrate(store.db, buildRegistry(Object.values(areas)).migrations);
  other = await openStore({ ...options, dataDir: options.dataDir! });
});
afterAll(async () => {
  await other?.close();
  await store?.close();
});

const tagExists = async (db: Store['db'], label: string) => (await db.selectFrom('tags').select('label').where('label', '=', label).execute()).length === 1;

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

  it('writes asked for at once each commit or fail alone, and each settles once committed', async () => {
    const labels = ['batch-a', 'batch-b', 'batch-c', 'batch-d'];
    const seen: Record<string, boolean> = {};
    const outcomes = await Promise.allSettled(labels.map((label) => store.write(async (trx) => {
      await trx.insertInto('tags').values({ label, created: 1 }).execute();
      if (label === 'batch-b') throw new Error('batch-b failed');
    }).then(async () => {
      // Settled: the other connection must see it already.
      seen[label] = await tagExists(other.db, label);
    })));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason.message).toBe('batch-b failed');
    expect(seen).toEqual({ 'batch-a': true, 'batch-c': true, 'batch-d': true });
    expect(await tagExists(store.db, 'batch-b')).toBe(false);
  });

  it('a read while a write is open never sees what the write has not committed', async () => {
    // A prepared read may run at once on SQLite's connection: never inside another's transaction.
    const tagByLabel = prepared((db, label: string) => db.selectFrom('tags').select('label').where('label', '=', label));
    const write = store.write(async (trx) => {
      await trx.insertInto('tags').values({ label: 'never-committed', created: 1 }).execute();
      await new Promise((r) => setTimeout(r, 50));
      throw new Error('rolled back');
    });
    // Its rejection is awaited from the start: on a busy machine the read below can take longer
    // than the write, and a rejection with no handler yet is an unhandled one.
    const rolledBack = expect(write).rejects.toThrow('rolled back');
    await new Promise((r) => setTimeout(r, 10));
    expect(await tagByLabel(store.db, 'never-committed')).toEqual([]);
    await rolledBack;
    expect(await tagByLabel(store.db, 'never-committed')).toEqual([]);
  });

  it('a query run again after a schema change answers the new columns', async () => {
    await sql`create table schema_probe (a integer)`.execute(store.db);
    await sql`insert into schema_probe (a) values (1)`.execute(store.db);
    const before = await sql`select * from schema_probe`.execute(store.db);
    expect(before.rows).toEqual([{ a: 1 }]);
    await sql`alter table schema_probe add column b integer`.execute(store.db);
    const after = await sql`select * from schema_probe`.execute(store.db);
    expect(after.rows).toEqual([{ a: 1, b: null }]);
    await sql`drop table schema_probe`.execute(store.db);
  });
});
