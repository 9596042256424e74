// The embedded store: one better-sqlite3 connection in WAL mode behind Kysely, its writes in
// group commits, and prepared queries run on it at once when nothing else holds it.
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { startCheckpointer } from './checkpointer.js';
import { batchRunners, columnReaders, rowMaker, runners } from './immediate.js';
import type { ImmediateRunner } from './immediate.js';
import type { Database as Tables } from './schema.js';
import { registerDataVersion } from './version.js';

export { columnNames, immediateRunner, rowMaker } from './immediate.js';
export type { ImmediateResult, ImmediateRunner } from './immediate.js';

const SCHEMA_CHANGE = /^\s*(create|alter|drop)\s/i;

type Db = Kysely<Tables>;
type Work<T> = (trx: Db) => Promise<T>;

/**
 * The connection as Kysely's SQLite dialect sees it, with a statement per SQL text: Kysely
 * prepares every query it runs, and preparing costs more than running a point read (queries run
 * one at a time on this connection, so one statement per text is enough). A reader returns its
 * rows as arrays (better-sqlite3's raw mode), made into objects by a function compiled for its
 * columns: better-sqlite3 builds each row object property by property, which costs more than
 * the read itself on a page of rows. A schema change (migrations) empties the cache, so that no
 * row is made from columns of before it.
 */
function cachedStatements(database: BetterSqlite3.Database, limit = 500): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  const prepare = (source: string): SqliteStatement => {
    const statement = database.prepare(source);
    if (!statement.reader) return statement;
    const toRow = rowMaker(statement.columns().map((column) => column.name));
    statement.raw(true);
    return {
      reader: true,
      all: (parameters) => (statement.all(parameters) as unknown[][]).map(toRow),
      run: (parameters) => statement.run(parameters),
      *iterate(parameters) {
        for (const values of statement.iterate(parameters) as IterableIterator<unknown[]>) yield toRow(values);
      },
    };
  };
  return {
    close: () => database.close(),
    prepare(source) {
      let statement = cache.get(source);
      if (!statement) {
        if (SCHEMA_CHANGE.test(source)) {
          cache.clear();
          return database.prepare(source);
        }
        statement = prepare(source);
        if (cache.size >= limit) cache.delete(cache.keys().next().value!);
        cache.set(source, statement);
      }
      return statement;
    },
  };
}

/**
 * The SQLite driver for this Node. better-sqlite3 12 (built from source for the running ABI) aborts
 * the process on Node 24 when V8 collects a statement outside a JavaScript context (its
 * ObjectWrap destructor's cleanup-hook check; WiseLibs/better-sqlite3#1515, fixed in 13 by moving
 * to Node-API); 13 ships prebuilt Node-API binaries but does not load on Node 20. Node 22 and later
 * take 13 (installed under the alias `better-sqlite3-napi`), Node 20 takes 12 (through
 * `@cloudapi/sqlite-node20`, which says where it is). Same API. Both are optional dependencies
 * whose engines let npm install each on its own Node lines only, so neither warns nor builds
 * where it is not used.
 */
function loadDriver(): { Database: typeof BetterSqlite3; driverPath: string } {
  const major = Number(process.versions.node.split('.')[0]);
  const load = createRequire(import.meta.url);
  const name = major >= 22 ? 'better-sqlite3-napi' : '@cloudapi/sqlite-node20';
  let driverPath: string;
  try {
    // By path: the checkpoint worker (checkpointer.ts) loads the same file.
    driverPath = major >= 22 ? load.resolve(name) : (load(name) as { driverPath: string }).driverPath;
  } catch (error) {
    throw new Error(`no SQLite driver for Node ${process.versions.node}: ${name} is missing (an optional dependency of @cloudapi/server that npm installs on ${major >= 22 ? 'Node 22 and later' : 'Node 20'} only); reinstall @cloudapi/server with this Node, or use DATABASE_URL`, { cause: error });
  }
  return { Database: load(driverPath) as typeof BetterSqlite3, driverPath };
}

/**
 * The data version (version.ts): the rows this connection changed (total_changes(), rolled back
 * or not, counting from the connection's start) and data_version, which moves when another
 * connection or process commits. Any write changes a row or changes nothing. Two statements kept
 * prepared, each answering one value: the pragma as a table in one SELECT cost twice as much.
 */
const TOTAL_CHANGES = 'select total_changes()';
const DATA_VERSION = 'pragma data_version';

function dataVersionOf(database: BetterSqlite3.Database): () => string {
  const changes = database.prepare(TOTAL_CHANGES).pluck();
  const version = database.prepare(DATA_VERSION).pluck();
  return () => `${changes.get() as number}:${version.get() as number}`;
}

/** The log's size (pages) at which the server's connection checkpoints while the worker runs. */
const OWN_CHECKPOINT_PAGES = 10_000;
/** The same without the worker: SQLite's default. */
const FALLBACK_CHECKPOINT_PAGES = 1000;

export async function openSqlite(dataDir: string): Promise<{ db: Db; location: string; write<T>(work: Work<T>): Promise<T>; close(): Promise<void> }> {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'cloudapi.sqlite');
  const { Database, driverPath } = loadDriver();
  let database: BetterSqlite3.Database;
  try {
    database = new Database(file);
    // WAL: readers never wait for the writer; NORMAL: a commit survives a crash of this process
    // (not of the machine), at a fraction of FULL's cost.
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('foreign_keys = ON');
    database.pragma('busy_timeout = 5000');
    // A worker copies the log into the file (checkpointer.ts), so that requests do not wait for
    // it. This connection checkpoints only once the log reaches 10000 pages (~40 MB), which
    // restarts the log and so bounds it; by then the worker has copied all but the last moments.
    database.pragma(`wal_autocheckpoint = ${OWN_CHECKPOINT_PAGES}`);
  } catch (error) {
    throw new Error(`the SQLite database ${file} cannot be opened: ${(error as Error).message}`);
  }
  const checkpointer = startCheckpointer(file, driverPath, (error) => {
    // Without the worker, this connection copies the whole log itself: at SQLite's default size,
    // so that each copy (a stall of every request) stays short.
    database.pragma(`wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
    process.emitWarning(`WAL checkpoints are back on the server's own connection: ${error.message}`);
  });
  const connection = cachedStatements(database);
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: connection }) });
  const run: ImmediateRunner = (source, parameters) => {
    const statement = connection.prepare(source);
    if (statement.reader) return { rows: statement.all(parameters) };
    return { rows: [], insertId: Number(statement.run(parameters).lastInsertRowid) };
  };
  // The store's own instance runs at once only outside a transaction: inside one, the connection
  // belongs to the batch of writes holding it, and a read of another request waits for its commit.
  runners.set(db, () => (database.inTransaction ? null : run));
  columnReaders.set(db, (source) => database.prepare(source).columns().map((column) => column.name));
  const readVersion = dataVersionOf(database);
  registerDataVersion(db, () => {
    if (!database.inTransaction) return readVersion();
    // A batch of writes holds the connection: its commit (or rollback) comes first.
    return db.connection().execute(async () => readVersion());
  });
  return {
    db,
    location: file,
    write: groupCommit(db, database, run, checkpointer.wrote),
    close: async () => {
      await checkpointer.close();
      await db.destroy();
    },
  };
}

/** A write of a request waiting for its batch, and how to answer it. */
interface Pending {
  work: Work<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * Group commit. The writes handlers ask for in one turn of the event loop and the next (the
 * requests read from the sockets then: clients answered by one commit send their next requests
 * together, and those read while the loop was busy come in the following turn) run one after
 * the other in one transaction (BEGIN IMMEDIATE … COMMIT), each in its own SAVEPOINT: a write
 * that fails is rolled back to its savepoint alone, and the others carry on. No write is answered
 * before the COMMIT, so what a client is told succeeded is on disk as before; a failed COMMIT
 * fails every write of the batch. One commit per batch instead of one per request: SQLite then
 * writes each page the batch touches (a table's last page, the tags index) to the WAL once.
 * Writes asked for while a batch runs form the next batch; Kysely's connection lock keeps other
 * requests' reads out of a batch until it is committed, as it does for one transaction.
 */
function groupCommit(db: Db, database: BetterSqlite3.Database, run: ImmediateRunner, committed: () => void) {
  let queue: Pending[] = [];
  const exec = (source: string) => run(source, []);

  async function commitBatch(batch: Pending[]): Promise<void> {
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    let failure: { error: unknown } | null = null;
    try {
      await db.connection().execute(async (connection) => {
        batchRunners.set(connection, run);
        // Everything up to the ROLLBACK happens while this batch holds the connection.
        try {
          exec('begin immediate');
          for (const { work } of batch) {
            exec('savepoint write');
            try {
              const value = await work(connection);
              exec('release write');
              outcomes.push({ ok: true, value });
            } catch (error) {
              // An I/O error or a full disk may have ended the whole transaction: the batch fails.
              if (!database.inTransaction) throw error;
              exec('rollback to write');
              exec('release write');
              outcomes.push({ ok: false, error });
            }
          }
          exec('commit');
          committed();
        } catch (error) {
          if (database.inTransaction) exec('rollback');
          failure = { error };
        } finally {
          batchRunners.delete(connection);
        }
      });
    } catch (error) {
      failure = { error };
    }
    batch.forEach((pending, i) => {
      const outcome = outcomes[i];
      if (outcome && !outcome.ok) pending.reject(outcome.error);
      else if (failure) pending.reject(failure.error);
      else pending.resolve(outcome!.value);
    });
  }

  const flush = () => {
    const batch = queue;
    queue = [];
    void commitBatch(batch);
  };

  return function write<T>(work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (queue.length === 1) setImmediate(() => setImmediate(flush));
    });
  };
}
