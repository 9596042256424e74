// The PostgreSQL store: a pg pool behind Kysely for transactions and built queries, and prepared
// queries run on the pool at once as named statements, outside any transaction: PostgreSQL then
// parses and plans each statement once per connection instead of on every read (a point read cost
// its server about 140 µs of CPU unnamed, 50 µs named, on the 2-core machine of the benchmark).
import { createHash } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import type { Pool, QueryConfig } from 'pg';
import type { Database as Tables } from './schema.js';
import type { ImmediateResult } from './sqlite.js';
import { registerDataVersion, sharedReads } from './version.js';

type Db = Kysely<Tables>;

/** A runner of compiled SQL on the pool, outside any transaction. */
export type PostgresRunner = (sql: string, parameters: readonly unknown[]) => Promise<ImmediateResult>;

// The stores' own Kysely instances (not their transactions): how to run SQL on their pool.
const runners = new WeakMap<Kysely<any>, PostgresRunner>();

/** How to run compiled SQL on `db`'s pool at once, or null when `db` is not a PostgreSQL store's own instance (a transaction, or SQLite). */
export function postgresRunner(db: Kysely<any>): PostgresRunner | null {
  return runners.get(db) ?? null;
}

/**
 * Distinct SQL texts run as named statements, per store. Each connection prepares a text the
 * first time it runs it and keeps it while it lives, so the number is bounded: texts past it (a
 * flood of distinct X-Filter shapes) run unnamed, as before; so do statements of more than
 * MAX_NAMED_PARAMETERS values (a list of ids), whose plans would be large and seldom used again.
 */
export const MAX_NAMED_STATEMENTS = 256;
export const MAX_NAMED_PARAMETERS = 64;

/** A PostgreSQL error: a cached plan whose result columns changed (another process migrated the table). */
const PLAN_CHANGED = '0A000';

function statementNames() {
  const names = new Map<string, string | null>();
  return (sql: string): string | null => {
    let name = names.get(sql);
    if (name === undefined) {
      name = names.size < MAX_NAMED_STATEMENTS ? `cloudapi_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}` : null;
      names.set(sql, name);
    }
    return name;
  };
}

/** The runner of a pool: named statements where there is room, unnamed once a text's plan went stale. */
function poolRunner(pool: Pool): PostgresRunner {
  const nameOf = statementNames();
  const stale = new Set<string>();
  return async (sql, parameters) => {
    const name = parameters.length > MAX_NAMED_PARAMETERS || stale.has(sql) ? null : nameOf(sql);
    const values = parameters as unknown[];
    try {
      const result = await pool.query(name ? ({ name, text: sql, values } as QueryConfig) : { text: sql, values });
      return { rows: result.rows };
    } catch (error) {
      if (!name || (error as { code?: string }).code !== PLAN_CHANGED) throw error;
      // Connections keep the statement prepared: this text runs unnamed from now on.
      stale.add(sql);
      return { rows: (await pool.query({ text: sql, values })).rows };
    }
  };
}

// A write that lost a race in PostgreSQL (serialization failure, deadlock) is retried whole.
const RETRYABLE = new Set(['40001', '40P01']);

/** A URL safe to print: the password replaced. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unparsable URL)';
  }
}

export async function openPostgres(databaseUrl: string, poolSize = 10) {
  // The driver is loaded only when used.
  const { default: pg } = await import('pg');
  // PostgreSQL answers bigint (epoch ms) and count() as strings; both fit a JS number here.
  const pgTypes = {
    getTypeParser(oid: number, format?: any) {
      if (oid === 20) return (value: string) => Number(value);
      return pg.types.getTypeParser(oid, format);
    },
  };
  const location = redactUrl(databaseUrl);
  const pool: Pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize, types: pgTypes, connectionTimeoutMillis: 10_000 });
  pool.on('error', () => {}); // an idle client's lost connection is reported by the next query
  let versionNumber: number;
  try {
    const client = await pool.connect();
    try {
      versionNumber = Number((await client.query('show server_version_num')).rows[0].server_version_num);
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => {});
    throw new Error(`DATABASE_URL ${location} cannot be reached: ${(error as Error).message || (error as NodeJS.ErrnoException).code}`);
  }
  const db: Db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  const run = poolRunner(pool);
  runners.set(db, run);
  // The snapshot lists the transactions running and the newest one ended, so any commit (or
  // rollback) of any process changes its text, and it stays while nothing ends. Reading it costs
  // no write, so writers pay nothing for the caches it guards; requests asking at once share one
  // query (sharedReads). (txid_current_snapshot before 13.)
  const snapshot = versionNumber >= 130000 ? 'pg_current_snapshot()' : 'txid_current_snapshot()';
  const versionSql = `select ${snapshot}::text as v`;
  registerDataVersion(db, sharedReads(async () => String(((await run(versionSql, [])).rows[0] as { v: string }).v)));
  return {
    db,
    location,
    async write<T>(work: (trx: Db) => Promise<T>): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        try {
          return await db.transaction().execute(work);
        } catch (error) {
          if (attempt >= 5 || !RETRYABLE.has((error as { code?: string }).code ?? '')) throw error;
        }
      }
    },
    close: () => db.destroy(),
  };
}
