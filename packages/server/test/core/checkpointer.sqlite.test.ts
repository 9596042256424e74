// The checkpoint worker (src/core/store/checkpointer.ts) on a real SQLite file: the log is copied
// into the database file by the worker while the writing connection never checkpoints, and a worker
// that cannot run says so instead of leaving the log to grow.
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startCheckpointer } from '../../src/core/store/checkpointer.js';
import type { Checkpointer } from '../../src/core/store/checkpointer.js';
import { tempDir } from '../harness/harness.js';

const driverPath = createRequire(import.meta.url).resolve('better-sqlite3');
const ROW = 'x'.repeat(2000);

let open: { db: Database.Database; checkpointer?: Checkpointer }[] = [];
afterEach(async () => {
  for (const { db, checkpointer } of open) {
    await checkpointer?.close();
    db.close();
  }
  open = [];
});

/** A WAL database whose own connection never checkpoints, with a table of 500 rows of 2 KB. */
function writer() {
  const file = path.join(tempDir('checkpointer'), 'db.sqlite');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('create table t (id integer primary key, body text)');
  const insert = db.prepare('insert into t (body) values (?)');
  db.transaction(() => { for (let i = 0; i < 500; i++) insert.run(ROW); })();
  const entry: (typeof open)[number] = { db };
  open.push(entry);
  return { file, db, entry, writeOne: () => insert.run(ROW) };
}

const fileSize = (file: string) => statSync(file).size;

const until = async (condition: () => boolean, what: string, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('checkpoint worker', () => {
  it('copies the log into the database file off the writing thread', async () => {
    const withWorker = writer();
    const without = writer();
    // The rows are in the log alone: the database files hold little more than the schema.
    expect(fileSize(withWorker.file)).toBeLessThan(64 * 1024);
    withWorker.entry.checkpointer = startCheckpointer(withWorker.file, driverPath, (error) => { throw error; });
    withWorker.entry.checkpointer.wrote();
    await until(() => fileSize(withWorker.file) > 500 * ROW.length, 'the worker copies the rows into the database file');
    // The same writes without the worker stay in the log.
    expect(fileSize(without.file)).toBeLessThan(64 * 1024);
    // Later writes are copied too.
    const before = fileSize(withWorker.file);
    withWorker.db.transaction(() => { for (let i = 0; i < 100; i++) withWorker.writeOne(); })();
    withWorker.entry.checkpointer.wrote();
    await until(() => fileSize(withWorker.file) > before + 100 * ROW.length, 'the next writes are copied too');
  });

  it('tells the caller when it cannot run, once', async () => {
    const { file, entry } = writer();
    const failures: Error[] = [];
    entry.checkpointer = startCheckpointer(file, path.join(tempDir('no-driver'), 'missing.js'), (error) => failures.push(error));
    await until(() => failures.length > 0, 'the failure is reported');
    entry.checkpointer.wrote(); // after the failure: nothing more happens
    await new Promise((r) => setTimeout(r, 100));
    expect(failures).toHaveLength(1);
    expect(failures[0]!.message).toMatch(/missing\.js/);
  });

  it('stops on close: later writes stay in the log, and a second close is a no-op', async () => {
    const { file, db, writeOne } = writer();
    const checkpointer = startCheckpointer(file, driverPath, (error) => { throw error; });
    await expect(checkpointer.close()).resolves.toBeUndefined();
    await expect(checkpointer.close()).resolves.toBeUndefined();
    const size = fileSize(file);
    db.transaction(() => { for (let i = 0; i < 100; i++) writeOne(); })();
    checkpointer.wrote();
    await new Promise((r) => setTimeout(r, 300));
    expect(fileSize(file)).toBe(size);
  });
});
