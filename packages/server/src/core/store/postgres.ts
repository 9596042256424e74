// The PostgreSQL store: a pg pool behind Kysely for transactions and built queries, and prepared
// queries run at once outside any transaction, as named statements, on pipelined connections
// (postgres-reads.ts).
import { Kysely, PostgresDialect } from 'kysely';
import type { Pool } from 'pg';
import { postgresRunners } from './immediate.js';
import { PIPELINED_CONNECTIONS, pipelinedConnections, postgresReads } from './postgres-reads.js';
import type { Database as Tables } from './schema.js';
import { registerDataVersion, sharedReads } from './version.js';

type Db = Kysely<Tables>;


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
  const settings = { connectionString: databaseUrl, types: pgTypes, connectionTimeoutMillis: 10_000 };
  const pool: Pool = new pg.Pool({ ...settings, max: poolSize });
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
  const pipelined = pipelinedConnections(() => new pg.Client({ ...settings, pipeline: true }), PIPELINED_CONNECTIONS);
  const run = postgresReads(pipelined, pool);
  postgresRunners.set(db, run);
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
    close: async () => {
      await pipelined.close();
      await db.destroy();
    },
  };
}
